package oauth

// WWW-Authenticate, read by the grammar of RFC 9110 §11.6.1 (with the
// list rules of §5.6.1 and the quoted strings of §5.6.4), for the Bearer
// parameters of RFC 6750 §3 and RFC 9728 §5.1. A header that does not
// follow the grammar is not guessed at: it yields no challenge, and the
// flow falls back to the well-known metadata locations.

import (
	"fmt"
	"net/http"
	"strings"
)

// Challenge is what a 401 or 403 said in WWW-Authenticate (Bearer).
type Challenge struct {
	ResourceMetadata string
	Scope            string
	Error            string
	Description      string
	// Raw is the header as received, for messages.
	Raw string
}

// ParseChallenge reads the Bearer challenge of a response's headers; ok is
// false when there is none.
func ParseChallenge(h http.Header) (Challenge, bool) {
	// Several field lines are one list, joined by commas (RFC 9110 §5.3).
	raw := strings.Join(h.Values("WWW-Authenticate"), ", ")
	cs, err := parseChallenges(raw)
	if err != nil {
		return Challenge{Raw: raw}, false
	}
	for _, c := range cs {
		if c.scheme == "bearer" {
			return Challenge{
				ResourceMetadata: c.params["resource_metadata"],
				Scope:            c.params["scope"],
				Error:            c.params["error"],
				Description:      c.params["error_description"],
				Raw:              raw,
			}, true
		}
	}
	return Challenge{Raw: raw}, false
}

// authChallenge is one challenge: its scheme in lower case (schemes are
// case-insensitive), and either a token68 or parameters, whose names are
// lower case too (so are parameter names).
type authChallenge struct {
	scheme  string
	token68 string
	params  map[string]string
}

// challengeParser walks one header value byte by byte.
type challengeParser struct {
	s string
	i int
}

func (p *challengeParser) errorf(format string, a ...any) error {
	return fmt.Errorf("WWW-Authenticate at byte %d: %s", p.i, fmt.Sprintf(format, a...))
}

func (p *challengeParser) done() bool { return p.i >= len(p.s) }

// skipSpace skips OWS / BWS (spaces and tabs).
func (p *challengeParser) skipSpace() {
	for !p.done() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// skipSeparators skips empty list elements: commas and the space around
// them, which a recipient must accept (RFC 9110 §5.6.1.2).
func (p *challengeParser) skipSeparators() {
	for {
		p.skipSpace()
		if p.done() || p.s[p.i] != ',' {
			return
		}
		p.i++
	}
}

func (p *challengeParser) token() string {
	start := p.i
	for !p.done() && isTokenChar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// parseChallenges reads a WWW-Authenticate list:
//
//	WWW-Authenticate = #challenge
//	challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
//	auth-param = token BWS "=" BWS ( token / quoted-string )
func parseChallenges(s string) ([]authChallenge, error) {
	p := &challengeParser{s: s}
	var out []authChallenge
	for {
		p.skipSeparators()
		if p.done() {
			return out, nil
		}
		scheme := p.token()
		if scheme == "" {
			return nil, p.errorf("expected an authentication scheme, found %q", p.s[p.i])
		}
		c := authChallenge{scheme: strings.ToLower(scheme), params: map[string]string{}}
		if !p.done() && p.s[p.i] != ',' {
			if p.s[p.i] != ' ' && p.s[p.i] != '\t' {
				return nil, p.errorf("expected a space after the scheme %q", scheme)
			}
			p.skipSpace()
			if t68, ok := p.token68(); ok {
				c.token68 = t68
			} else if err := p.params(&c); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
}

// token68 reads a token68 when that is what follows the scheme: its
// characters, any '=' padding, then the end of the challenge. Anything
// else (a parameter's '=' and value) leaves the position where it was.
func (p *challengeParser) token68() (string, bool) {
	start := p.i
	j := p.i
	for j < len(p.s) && isToken68Char(p.s[j]) {
		j++
	}
	if j == start {
		return "", false
	}
	for j < len(p.s) && p.s[j] == '=' {
		j++
	}
	end := j
	for j < len(p.s) && (p.s[j] == ' ' || p.s[j] == '\t') {
		j++
	}
	if j < len(p.s) && p.s[j] != ',' {
		return "", false
	}
	p.i = j
	return p.s[start:end], true
}

// params reads the challenge's auth-params, up to the end of the header or
// the token after a comma that is not followed by '=': the next scheme.
func (p *challengeParser) params(c *authChallenge) error {
	for first := true; ; first = false {
		before := p.i
		p.skipSeparators()
		if p.done() {
			return nil
		}
		afterComma := strings.IndexByte(p.s[before:p.i], ',') >= 0
		at := p.i
		name := p.token()
		if name == "" {
			return p.errorf("expected a parameter name, found %q", p.s[p.i])
		}
		p.skipSpace()
		if p.done() || p.s[p.i] != '=' {
			if first && !afterComma {
				return p.errorf("expected '=' after the parameter %q", name)
			}
			p.i = at // the next challenge's scheme
			return nil
		}
		p.i++ // '='
		p.skipSpace()
		var value string
		if !p.done() && p.s[p.i] == '"' {
			v, err := p.quoted()
			if err != nil {
				return err
			}
			value = v
		} else if value = p.token(); value == "" {
			return p.errorf("the parameter %q has no value", name)
		}
		key := strings.ToLower(name)
		if _, dup := c.params[key]; dup {
			// "Each parameter name MUST only occur once per challenge."
			return p.errorf("the parameter %q appears twice in one challenge", name)
		}
		c.params[key] = value
		p.skipSpace()
		if p.done() {
			return nil
		}
		if p.s[p.i] != ',' {
			return p.errorf("expected ',' after the parameter %q, found %q", name, p.s[p.i])
		}
	}
}

// quoted reads a quoted-string (RFC 9110 §5.6.4) and returns its content
// with the quoted-pairs undone.
func (p *challengeParser) quoted() (string, error) {
	p.i++ // the opening quote
	var b strings.Builder
	for !p.done() {
		ch := p.s[p.i]
		switch {
		case ch == '"':
			p.i++
			return b.String(), nil
		case ch == '\\':
			p.i++
			if p.done() {
				return "", p.errorf("a backslash ends the header inside a quoted string")
			}
			if e := p.s[p.i]; !isQuotedPairChar(e) {
				return "", p.errorf("a control character %q is escaped in a quoted string", e)
			}
			b.WriteByte(p.s[p.i])
		case isQdText(ch):
			b.WriteByte(ch)
		default:
			return "", p.errorf("a control character %q in a quoted string", ch)
		}
		p.i++
	}
	return "", p.errorf("a quoted string is not closed")
}

// isTokenChar: tchar of RFC 9110 §5.6.2.
func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// isToken68Char: the characters of token68 before its '=' padding.
func isToken68Char(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~+/", c) >= 0
}

// isQdText: HTAB, SP, visible characters but '"' and '\', and obs-text.
func isQdText(c byte) bool {
	return c == '\t' || c == ' ' || c == 0x21 || (0x23 <= c && c <= 0x5B) || (0x5D <= c && c <= 0x7E) || c >= 0x80
}

// isQuotedPairChar: what may follow a backslash: HTAB, SP, VCHAR, obs-text.
func isQuotedPairChar(c byte) bool {
	return c == '\t' || (0x20 <= c && c <= 0x7E) || c >= 0x80
}
