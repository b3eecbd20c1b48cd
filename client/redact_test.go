package client

import (
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/mcp":                         "https://example.com/mcp",
		"https://ann:s3cr3t@example.com/mcp":              "https://ann:REDACTED@example.com/mcp",
		"https://ann@example.com/mcp":                     "https://ann@example.com/mcp",
		"https://example.com/mcp?api_key=k3y&region=eu":   "https://example.com/mcp?api_key=REDACTED&region=eu",
		"https://example.com/mcp?access_token=t&sig=s&x=": "https://example.com/mcp?access_token=REDACTED&sig=REDACTED&x=",
		"https://example.com/mcp?Token":                   "https://example.com/mcp?Token",
		"https://example.com/mcp?tenant=acme":             "https://example.com/mcp?tenant=acme",
		"://not a url":                                    "://not a url",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// URLCredentials gives what RedactURL hides, as written and decoded.
func TestURLCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/mcp":                                  "",
		"https://ann:s3cr3t@example.com/mcp?api_key=k3y&region=eu": "s3cr3t k3y",
		"https://ann:p%40ss@example.com/mcp?token=a%2Bb":           "p@ss p%40ss a%2Bb a+b",
		"https://example.com/mcp?Token":                            "",
		"://not a url":                                             "",
	} {
		if got := strings.Join(URLCredentials(in), " "); got != want {
			t.Errorf("URLCredentials(%q) = %q, want %q", in, got, want)
		}
	}
}
