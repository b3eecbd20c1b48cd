package secrets

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

func TestRedact(t *testing.T) {
	var s Set
	s.Add("s3cr3t-token-value", "short", "", "pa55word-long", "s3cr3t-token-value")
	for in, want := range map[string]string{
		"no secret here": "no secret here",
		"rejected Bearer s3cr3t-token-value, try again": "rejected Bearer [REDACTED], try again",
		"twice: s3cr3t-token-value s3cr3t-token-value":  "twice: [REDACTED] [REDACTED]",
		"short stays, pa55word-long goes":               "short stays, [REDACTED] goes",
		// An excerpt cut in the middle of the value ("…"), and one cut
		// before MinLen bytes of it, which says too little to count.
		"body: token s3cr3t-tok…":   "body: token [REDACTED]…",
		"body: token s3cr3t…":       "body: token s3cr3t…",
		"s3cr3t-tok… s3cr3t-token…": "[REDACTED]… [REDACTED]…",
		"ellipsis… alone":           "ellipsis… alone",
	} {
		if got := s.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	var none *Set
	if got := none.Redact("s3cr3t-token-value"); got != "s3cr3t-token-value" {
		t.Errorf("a nil Set redacted: %q", got)
	}
	none.Add("x") // no panic
}

// JSON stays JSON: a value in a string is replaced in it; one written as
// a number makes the whole text a string.
func TestRedactJSON(t *testing.T) {
	var s Set
	s.Add("s3cr3t-token-value", "12345678")
	for in, want := range map[string]string{
		`{"a":"Bearer s3cr3t-token-value"}`: `{"a":"Bearer [REDACTED]"}`,
		`{"n":12345678}`:                    `"{\"n\":[REDACTED]}"`,
		`{"none":1}`:                        `{"none":1}`,
		``:                                  ``,
	} {
		if got := string(s.RedactJSON([]byte(in))); got != want {
			t.Errorf("RedactJSON(%s) = %s, want %s", in, got, want)
		}
	}
}

// A value inside another: the longer is replaced whole.
func TestRedactLongestFirst(t *testing.T) {
	var s Set
	s.Add("abcdefgh", "xxabcdefghyy")
	if got := s.Redact("a xxabcdefghyy b abcdefgh"); got != "a [REDACTED] b [REDACTED]" {
		t.Errorf("got %q", got)
	}
}

func TestWriter(t *testing.T) {
	var s Set
	var b bytes.Buffer
	w := s.Writer(&b)
	if n, err := w.Write([]byte("before s3cr3t-token-value\n")); n != 26 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	s.Add("s3cr3t-token-value") // learnt on the way (an OAuth token)
	if n, err := w.Write([]byte("after s3cr3t-token-value\n")); n != 25 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got, want := b.String(), "before s3cr3t-token-value\nafter [REDACTED]\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var none *Set
	if none.Writer(&b) != &b {
		t.Error("a nil Set wraps its writer")
	}
}

// Values are added while other goroutines write (go test -race).
func TestConcurrent(t *testing.T) {
	var s Set
	var b bytes.Buffer
	var mu sync.Mutex
	w := s.Writer(lockedWriter{&b, &mu})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() { defer wg.Done(); s.Add(strings.Repeat(string(rune('a'+i)), 10)) }()
		go func() { defer wg.Done(); _, _ = w.Write([]byte("aaaaaaaaaa\n")) }()
	}
	wg.Wait()
	if got := s.Redact("aaaaaaaaaa"); got != Redacted {
		t.Errorf("got %q", got)
	}
}

type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
