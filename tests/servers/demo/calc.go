package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// errDivisionByZero is distinguished so callers (and tests) can tell a
// mathematically invalid expression from a syntactically invalid one.
var errDivisionByZero = errors.New("division by zero")

// maxDepth bounds parenthesis/unary nesting so a hostile expression cannot
// exhaust the goroutine stack.
const maxDepth = 200

// evaluate parses and evaluates an arithmetic expression with the grammar
//
//	expr    = term { ("+" | "-") term }
//	term    = unary { ("*" | "/") unary }
//	unary   = ("-" | "+") unary | primary
//	primary = number | "(" expr ")"
//
// Evaluation happens during parsing; there is no AST because nothing else
// needs one.
func evaluate(input string) (float64, error) {
	p := &parser{src: input}
	p.skipSpace()
	if p.pos == len(p.src) {
		return 0, errors.New("empty expression")
	}
	v, err := p.expr()
	if err != nil {
		return 0, err
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		return 0, p.errorf("unexpected %q", p.src[p.pos])
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errors.New("result is out of range")
	}
	return v, nil
}

// formatNumber prints integers without a fractional part or exponent, so
// "2*(3+4)" reads as "14" rather than "1.4e+01".
func formatNumber(v float64) string {
	if v == 0 {
		return "0" // avoid "-0"
	}
	if math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

type parser struct {
	src   string
	pos   int
	depth int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("parse error at position %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

// peek returns the next non-space byte, or 0 at end of input.
func (p *parser) peek() byte {
	p.skipSpace()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *parser) expr() (float64, error) {
	left, err := p.term()
	if err != nil {
		return 0, err
	}
	for {
		op := p.peek()
		if op != '+' && op != '-' {
			return left, nil
		}
		p.pos++
		right, err := p.term()
		if err != nil {
			return 0, err
		}
		if op == '+' {
			left += right
		} else {
			left -= right
		}
	}
}

func (p *parser) term() (float64, error) {
	left, err := p.unary()
	if err != nil {
		return 0, err
	}
	for {
		op := p.peek()
		if op != '*' && op != '/' {
			return left, nil
		}
		p.pos++
		right, err := p.unary()
		if err != nil {
			return 0, err
		}
		if op == '*' {
			left *= right
		} else {
			if right == 0 {
				return 0, errDivisionByZero
			}
			left /= right
		}
	}
}

func (p *parser) unary() (float64, error) {
	if p.depth++; p.depth > maxDepth {
		return 0, p.errorf("expression nested too deeply")
	}
	defer func() { p.depth-- }()

	switch p.peek() {
	case '-':
		p.pos++
		v, err := p.unary()
		return -v, err
	case '+':
		p.pos++
		return p.unary()
	}
	return p.primary()
}

func (p *parser) primary() (float64, error) {
	c := p.peek()
	switch {
	case c == 0:
		return 0, p.errorf("unexpected end of expression")
	case c == '(':
		p.pos++
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		if p.peek() != ')' {
			return 0, p.errorf("expected ')'")
		}
		p.pos++
		return v, nil
	case c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return 0, p.errorf("unexpected %q", c)
}

// number accepts digits with at most one decimal point ("3", "3.5", ".5",
// "5."); exponents are deliberately unsupported to keep the language small.
func (p *parser) number() (float64, error) {
	start := p.pos
	seenDot := false
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '.' && !seenDot {
			seenDot = true
		} else if c < '0' || c > '9' {
			break
		}
		p.pos++
	}
	text := p.src[start:p.pos]
	if text == "." {
		p.pos = start
		return 0, p.errorf("invalid number")
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		p.pos = start
		if errors.Is(err, strconv.ErrRange) {
			return 0, p.errorf("number is out of range")
		}
		return 0, p.errorf("invalid number %q", text)
	}
	return v, nil
}
