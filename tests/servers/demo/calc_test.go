package main

import (
	"errors"
	"strings"
	"testing"
)

func TestEvaluate(t *testing.T) {
	tests := []struct {
		expr string
		want string
	}{
		{"1", "1"},
		{"2*(3+4)", "14"},
		{"1 + 2 * 3", "7"},
		{"(1 + 2) * 3", "9"},
		{"10 - 4 - 3", "3"},
		{"100 / 10 / 5", "2"},
		{"-3 + 5", "2"},
		{"--3", "3"},
		{"-(2 + 3) * 2", "-10"},
		{"+4", "4"},
		{"2 * -3", "-6"},
		{"1.5 * 4", "6"},
		{".5 + 5.", "5.5"},
		{"7 / 2", "3.5"},
		{"0.1 + 0.2", "0.30000000000000004"},
		{"  ( ( 42 ) )  ", "42"},
		{"-0", "0"},
		{"1000000 * 1000000", "1000000000000"},
	}
	for _, tt := range tests {
		got, err := evaluate(tt.expr)
		if err != nil {
			t.Errorf("evaluate(%q) error: %v", tt.expr, err)
			continue
		}
		if s := formatNumber(got); s != tt.want {
			t.Errorf("evaluate(%q) = %s, want %s", tt.expr, s, tt.want)
		}
	}
}

func TestEvaluateErrors(t *testing.T) {
	tests := []struct {
		expr    string
		wantSub string
	}{
		{"", "empty expression"},
		{"   ", "empty expression"},
		{"1 / 0", "division by zero"},
		{"1 / (2 - 2)", "division by zero"},
		{"1 +", "unexpected end"},
		{"(1 + 2", "expected ')'"},
		{"1 + 2)", "unexpected ')'"},
		{"2 ** 3", "unexpected '*'"},
		{"abc", "unexpected 'a'"},
		{"1.2.3", "unexpected '.'"},
		{".", "invalid number"},
		{"3 4", "unexpected '4'"},
		{strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 1000), "nested too deeply"},
		{"9" + strings.Repeat("9", 400), "out of range"},
	}
	for _, tt := range tests {
		_, err := evaluate(tt.expr)
		if err == nil {
			t.Errorf("evaluate(%q) succeeded, want error containing %q", tt.expr, tt.wantSub)
			continue
		}
		if !strings.Contains(err.Error(), tt.wantSub) {
			t.Errorf("evaluate(%q) error = %q, want it to contain %q", tt.expr, err, tt.wantSub)
		}
	}
	if _, err := evaluate("5/0"); !errors.Is(err, errDivisionByZero) {
		t.Errorf("evaluate(5/0) error = %v, want errDivisionByZero", err)
	}
}
