package ojson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestSplitObjectKeepsOrderAndDuplicates(t *testing.T) {
	m, err := SplitObject([]byte(` {"b":1, "a" : [1, 2.50], "b":"x<y"} `))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(m.JSON()); got != `{"b":1,"a":[1, 2.50],"b":"x<y"}` {
		t.Errorf("JSON = %s", got)
	}
	if got := string(m.Get("b")); got != `"x<y"` {
		t.Errorf("Get(b) = %s, want the last duplicate", got)
	}
	if got := m.Keys(); len(got) != 2 || got[0] != "b" || got[1] != "a" {
		t.Errorf("Keys = %q", got)
	}
	if got := string(m.Unique().JSON()); got != `{"b":"x<y","a":[1, 2.50]}` {
		t.Errorf("Unique = %s", got)
	}
	if m.Get("z") != nil || m.Has("z") || !m.Has("a") {
		t.Error("Get/Has of absent and present keys")
	}
}

func TestMembersSetAndDelete(t *testing.T) {
	m, _ := SplitObject([]byte(`{"a":1,"b":2,"a":3,"c":4}`))
	m.Set("a", json.RawMessage(`5`))
	if got := string(m.JSON()); got != `{"a":5,"b":2,"c":4}` {
		t.Errorf("after Set(a) %s", got)
	}
	m.Set("d", json.RawMessage(`"<&>"`))
	m.Delete("b")
	if got := string(m.JSON()); got != `{"a":5,"c":4,"d":"<&>"}` {
		t.Errorf("after Set(d), Delete(b) %s", got)
	}
	var empty Members
	if got := string(empty.JSON()); got != `{}` {
		t.Errorf("zero Members = %s", got)
	}
	empty.Set("k", nil)
	if got := string(empty.JSON()); got != `{"k":null}` {
		t.Errorf("a missing value = %s", got)
	}
}

func TestSplitObjectErrors(t *testing.T) {
	for in, want := range map[string]error{
		`[1]`:           ErrNotObject,
		`"s"`:           ErrNotObject,
		`{"a":1`:        ErrUnterminated,
		`{"a":1} {}`:    ErrTrailingData,
		`{"a":1} x`:     ErrTrailingData,
		`{"a":1,}`:      nil, // a *SyntaxError
		`{"a":1 "b":2}`: nil,
		``:              nil,
	} {
		_, err := SplitObject([]byte(in))
		if err == nil {
			t.Errorf("SplitObject(%q) accepted", in)
			continue
		}
		if want != nil && !errors.Is(err, want) {
			t.Errorf("SplitObject(%q) = %v, want %v", in, err, want)
		}
	}
	var se *SyntaxError
	if _, err := SplitObject([]byte(`{"a":x}`)); !errors.As(err, &se) || se.Offset != 5 ||
		se.Msg != "invalid character 'x' looking for beginning of value" {
		t.Errorf("a syntax error is not located in words of ours: %#v", err)
	}
}

func TestJoinArray(t *testing.T) {
	if got := string(JoinArray([]json.RawMessage{json.RawMessage(`1`), json.RawMessage(`{"a":2}`)})); got != `[1,{"a":2}]` {
		t.Errorf("JoinArray = %s", got)
	}
	if got := string(JoinArray(nil)); got != `[]` {
		t.Errorf("JoinArray(nil) = %s", got)
	}
}

// A member's value is where it lies in the object, not a copy: a large
// argument is not held twice. Appending to a value does not write over
// the next member.
func TestSplitObjectValuesAreSlices(t *testing.T) {
	data := []byte(`{"big": "` + strings.Repeat("x", 1<<20) + `", "next": 1, "k\u00e9y\n": true}`)
	m, err := SplitObject(data)
	if err != nil {
		t.Fatal(err)
	}
	big := m.Get("big")
	if &big[0] != &data[8] {
		t.Error("the value is a copy")
	}
	_ = append(big, '!')
	if got := string(m.Get("next")); got != "1" {
		t.Errorf("next = %s after an append to big", got)
	}
	if !m.Has("kéy\n") {
		t.Errorf("keys %q: an escaped key is not read", m.Keys())
	}
	allocs := testing.AllocsPerRun(10, func() { _, _ = SplitObject(data) })
	if allocs > 8 {
		t.Errorf("%v allocations to split three members", allocs)
	}
}
