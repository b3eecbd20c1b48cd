package client

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// secretParam matches query parameter names whose values are credentials
// (?api_key=…, ?access_token=…, ?sig=…).
var secretParam = sync.OnceValue(func() *regexp.Regexp { // compiled on first use, not in every process's init
	return regexp.MustCompile(`(?i)api[-_]?key|token|secret|passw|auth|session|sig|credential|^key$|^code$`)
})

// RedactURL returns rawURL fit to be shown in errors, traces and logs: a
// password in it, and the values of query parameters named like
// credentials, are replaced. Anything that does not parse is returned as
// it is.
func RedactURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	redacted := false
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "REDACTED")
		redacted = true
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			name, _, hasValue := strings.Cut(p, "=")
			if n, err := url.QueryUnescape(name); err == nil && hasValue && secretParam().MatchString(n) {
				parts[i] = name + "=REDACTED"
				redacted = true
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if !redacted {
		return rawURL
	}
	return u.String()
}

// URLCredentials returns what RedactURL hides in rawURL: the password,
// and the values of query parameters named like credentials, each as
// written and decoded, for a caller that must find them in other text.
func URLCredentials(rawURL string) []string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil
	}
	var out []string
	if p, has := u.User.Password(); has {
		out = append(out, p)
		if _, raw, ok := strings.Cut(u.User.String(), ":"); ok && raw != p {
			out = append(out, raw)
		}
	}
	for _, part := range strings.Split(u.RawQuery, "&") {
		name, value, hasValue := strings.Cut(part, "=")
		if n, err := url.QueryUnescape(name); err != nil || !hasValue || !secretParam().MatchString(n) {
			continue
		}
		out = append(out, value)
		if v, err := url.QueryUnescape(value); err == nil && v != value {
			out = append(out, v)
		}
	}
	return out
}
