package ojson

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// SyntaxError is what Check finds wrong with a JSON text: where (the
// offset of the offending byte, or the length of the text when it ends too
// soon) and what.
type SyntaxError struct {
	Offset int64
	Msg    string
}

func (e *SyntaxError) Error() string { return e.Msg }

// Check reports the first syntax error of data as one JSON value
// (surrounding white space aside), or nil. Its messages and offsets are
// mcpctl's own, the same whichever encoding/json the program is built
// with (Go's json/v2 words its errors differently), so that a message
// about a user's file does not change with the toolchain.
func Check(data []byte) *SyntaxError {
	c := checker{data: data}
	c.space()
	if err := c.value(); err != nil {
		return err
	}
	c.space()
	if c.pos < len(data) {
		return c.bad("after top-level value")
	}
	return nil
}

type checker struct {
	data []byte
	pos  int
}

// container is an open object or array.
type container struct{ object bool }

func (c *checker) space() {
	for c.pos < len(c.data) {
		switch c.data[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *checker) end() *SyntaxError {
	return &SyntaxError{Offset: int64(len(c.data)), Msg: "unexpected end of JSON input"}
}

func (c *checker) bad(context string) *SyntaxError {
	if c.pos >= len(c.data) {
		return c.end()
	}
	r, _ := utf8.DecodeRune(c.data[c.pos:])
	return &SyntaxError{Offset: int64(c.pos), Msg: strings.TrimSpace(fmt.Sprintf("invalid character %s %s", quoteChar(r), context))}
}

func quoteChar(r rune) string {
	switch {
	case r == '\'':
		return `'\''`
	case r == '"':
		return `'"'`
	case r < 0x20 || r == utf8.RuneError:
		return fmt.Sprintf("%q", r)
	}
	return "'" + string(r) + "'"
}

// value reads one value; containers are kept on a stack of their own, so
// that deep nesting costs no Go stack.
func (c *checker) value() *SyntaxError {
	var stack []container
	for {
		// A value is expected here.
		if c.pos >= len(c.data) {
			return c.end()
		}
		switch ch := c.data[c.pos]; {
		case ch == '{' || ch == '[':
			c.pos++
			stack = append(stack, container{object: ch == '{'})
			c.space()
			if closed, err := c.closeOrKey(&stack); err != nil {
				return err
			} else if !closed {
				continue
			}
		case ch == '"':
			if err := c.str(); err != nil {
				return err
			}
		case ch == '-' || (ch >= '0' && ch <= '9'):
			if err := c.number(); err != nil {
				return err
			}
		case ch == 't':
			if err := c.literal("true"); err != nil {
				return err
			}
		case ch == 'f':
			if err := c.literal("false"); err != nil {
				return err
			}
		case ch == 'n':
			if err := c.literal("null"); err != nil {
				return err
			}
		default:
			return c.bad("looking for beginning of value")
		}
		// A value ended: what follows it in its container.
		for {
			if len(stack) == 0 {
				return nil
			}
			top := &stack[len(stack)-1]
			c.space()
			if c.pos >= len(c.data) {
				return c.end()
			}
			ch := c.data[c.pos]
			close := byte(']')
			after := "after array element"
			if top.object {
				close, after = '}', "after object key:value pair"
			}
			if ch == close {
				c.pos++
				stack = stack[:len(stack)-1]
				continue
			}
			if ch != ',' {
				return c.bad(after)
			}
			c.pos++
			c.space()
			if top.object {
				if err := c.key(); err != nil {
					return err
				}
			}
			break
		}
	}
}

// closeOrKey follows an opening bracket: the matching close (closed), or
// for an object its first key and colon.
func (c *checker) closeOrKey(stack *[]container) (closed bool, err *SyntaxError) {
	top := &(*stack)[len(*stack)-1]
	if c.pos < len(c.data) && (c.data[c.pos] == '}' && top.object || c.data[c.pos] == ']' && !top.object) {
		c.pos++
		*stack = (*stack)[:len(*stack)-1]
		return true, nil
	}
	if top.object {
		return false, c.key()
	}
	return false, nil
}

// key reads an object key and its colon, and the white space after.
func (c *checker) key() *SyntaxError {
	if c.pos >= len(c.data) || c.data[c.pos] != '"' {
		// Worded as encoding/json's decoder always worded it here, which
		// the messages about users' files have said so far.
		return c.bad("")
	}
	if err := c.str(); err != nil {
		return err
	}
	c.space()
	if c.pos >= len(c.data) || c.data[c.pos] != ':' {
		return c.bad("after object key")
	}
	c.pos++
	c.space()
	return nil
}

func (c *checker) str() *SyntaxError {
	c.pos++ // the opening quote
	for c.pos < len(c.data) {
		switch ch := c.data[c.pos]; {
		case ch == '"':
			c.pos++
			return nil
		case ch == '\\':
			c.pos++
			if c.pos >= len(c.data) {
				return c.end()
			}
			switch c.data[c.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				c.pos++
			case 'u':
				c.pos++
				for i := 0; i < 4; i++ {
					if c.pos >= len(c.data) {
						return c.end()
					}
					if !isHex(c.data[c.pos]) {
						return c.bad(`in \u hexadecimal character escape`)
					}
					c.pos++
				}
			default:
				return c.bad("in string escape code")
			}
		case ch < 0x20:
			return c.bad("in string literal")
		default:
			c.pos++
		}
	}
	return c.end()
}

func isHex(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
}

func (c *checker) digits() int {
	n := 0
	for c.pos < len(c.data) && c.data[c.pos] >= '0' && c.data[c.pos] <= '9' {
		c.pos++
		n++
	}
	return n
}

func (c *checker) number() *SyntaxError {
	if c.data[c.pos] == '-' {
		c.pos++
	}
	if c.pos >= len(c.data) {
		return c.end()
	}
	switch {
	case c.data[c.pos] == '0':
		c.pos++
	case c.data[c.pos] >= '1' && c.data[c.pos] <= '9':
		c.digits()
	default:
		return c.bad("in numeric literal")
	}
	if c.pos < len(c.data) && c.data[c.pos] == '.' {
		c.pos++
		if c.digits() == 0 {
			return c.bad("after decimal point in numeric literal")
		}
	}
	if c.pos < len(c.data) && (c.data[c.pos] == 'e' || c.data[c.pos] == 'E') {
		c.pos++
		if c.pos < len(c.data) && (c.data[c.pos] == '+' || c.data[c.pos] == '-') {
			c.pos++
		}
		if c.digits() == 0 {
			return c.bad("in exponent of numeric literal")
		}
	}
	return nil
}

func (c *checker) literal(word string) *SyntaxError {
	for i := 0; i < len(word); i++ {
		if c.pos >= len(c.data) {
			return c.end()
		}
		if c.data[c.pos] != word[i] {
			return c.bad(fmt.Sprintf("in literal %s (expecting %s)", word, quoteChar(rune(word[i]))))
		}
		c.pos++
	}
	return nil
}

// Compact writes src to dst without the white space between its tokens,
// as json.Compact does, after checking it is one JSON value; every other
// byte is kept as it is. Unlike json.Compact (built on encoding/json/v2,
// which formats into a buffer of its own as large as src), it writes
// straight into dst: a large result is not held twice more.
func Compact(dst *bytes.Buffer, src []byte) error {
	if se := Check(src); se != nil {
		return se
	}
	dst.Grow(len(src))
	start, inString := 0, false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case inString && c == '\\':
			i++ // the escaped byte, a quote perhaps
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			dst.Write(src[start:i])
			start = i + 1
		}
	}
	dst.Write(src[start:])
	return nil
}
