package config

// The one rule for HTTP headers and environment variables, whoever gives
// them: -H and --env on the command line, `config add`, and the entries of
// every file this package reads (checked by Resolve, after expansion). It
// refuses what could not be sent or set, so that the mistake is named
// where it was made rather than failing later in net/http or exec: a
// header name that is not an HTTP token, a control character in a header
// value (a line break would start another header), a variable without a
// name, with "=" in its name (the first "=" ends it), or with a NUL byte
// (which ends the C string the variable is passed as).

import (
	"fmt"
	"strings"
)

// HeaderError is a header that cannot be sent.
type HeaderError struct {
	// Shown is what the message quotes: the name when only the value is
	// at fault, else the header's first word (the rest may well be a
	// credential).
	Shown  string
	Reason string
}

func (e *HeaderError) Error() string { return fmt.Sprintf("invalid header %q: %s", e.Shown, e.Reason) }

// EnvError is an environment variable that cannot be set.
type EnvError struct {
	// Shown is what the message quotes: KEY=VALUE as written when it has
	// no KEY=, else only the name (the value may be a credential).
	Shown  string
	Reason string
	// InFile is set for a variable of a file's env (a name and a value),
	// clear for --env KEY=VALUE.
	InFile bool
}

func (e *EnvError) Error() string {
	what := "--env"
	if e.InFile {
		what = "env"
	}
	return fmt.Sprintf("invalid %s %q: %s", what, e.Shown, e.Reason)
}

const (
	headerForm = "write it as 'Name: value'"
	envForm    = "write it as KEY=VALUE"
)

// ParseHeaders reads -H values, 'Name: value' each, in order. Space
// around the name and the value is dropped; the name is kept as written.
func ParseHeaders(texts []string) ([]KV, error) {
	var out []KV
	for _, text := range texts {
		name, value, ok := strings.Cut(text, ":")
		name = strings.TrimSpace(name)
		if !ok || !isToken(name) {
			return nil, &HeaderError{Shown: firstWord(text), Reason: headerForm}
		}
		if err := checkHeaderValue(name, value); err != nil {
			return nil, err
		}
		out = append(out, KV{Key: name, Value: strings.TrimSpace(value)})
	}
	return out, nil
}

// CheckHeader checks a header given as a name and a value (a file's
// headers).
func CheckHeader(name, value string) error {
	if !isToken(name) {
		return &HeaderError{Shown: firstWord(name), Reason: headerForm}
	}
	return checkHeaderValue(name, value)
}

func checkHeaderValue(name, value string) error {
	if strings.ContainsAny(value, "\r\n") {
		return &HeaderError{Shown: name, Reason: "the value contains a line break"}
	}
	for _, c := range []byte(value) {
		if c < ' ' && c != '\t' || c == 0x7f {
			return &HeaderError{Shown: name, Reason: "the value contains a control character"}
		}
	}
	return nil
}

// firstWord is text's first word, followed by " …" when more follows.
func firstWord(text string) string {
	shown, _, more := strings.Cut(strings.TrimSpace(text), " ")
	if more {
		shown += " …"
	}
	return shown
}

// isToken reports whether s is an HTTP token (RFC 9110, 5.6.2), the
// only form of a header name net/http sends.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// ParseEnv reads --env values, KEY=VALUE each, in order. The value is
// everything after the first "=", as written.
func ParseEnv(texts []string) ([]KV, error) {
	var out []KV
	for _, text := range texts {
		k, v, ok := strings.Cut(text, "=")
		if !ok || k == "" {
			return nil, &EnvError{Shown: text, Reason: envForm}
		}
		if err := checkEnvNUL(k, v, false); err != nil {
			return nil, err
		}
		out = append(out, KV{Key: k, Value: v})
	}
	return out, nil
}

// CheckEnv checks a variable given as a name and a value (a file's env).
func CheckEnv(key, value string) error {
	if key == "" || strings.Contains(key, "=") {
		return &EnvError{Shown: key, Reason: `a name must not be empty or contain "="`, InFile: true}
	}
	return checkEnvNUL(key, value, true)
}

func checkEnvNUL(key, value string, inFile bool) error {
	switch {
	case strings.IndexByte(key, 0) >= 0:
		return &EnvError{Shown: key, Reason: "the name contains a NUL byte", InFile: inFile}
	case strings.IndexByte(value, 0) >= 0:
		return &EnvError{Shown: key, Reason: "the value contains a NUL byte", InFile: inFile}
	}
	return nil
}

// checkEndpoint applies the rule to an endpoint's headers and variables.
func checkEndpoint(ep *Endpoint) error {
	for _, h := range ep.Headers {
		if err := CheckHeader(h.Key, h.Value); err != nil {
			return err
		}
	}
	for _, e := range ep.Env {
		if err := CheckEnv(e.Key, e.Value); err != nil {
			return err
		}
	}
	return nil
}
