package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// FuzzHeaderValue: whatever text a tool argument or a name holds, the
// header value mcpctl sends decodes back to it exactly, is plain visible
// ASCII (so no CR or LF can start a header line of its own), and, written
// into a real HTTP request and parsed back, yields the same headers and
// no others.
func FuzzHeaderValue(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzHeaderValue.
	f.Fuzz(func(t *testing.T, s string) {
		enc := EncodeHeaderValue(s)
		dec, err := DecodeHeaderValue(enc)
		if err != nil || dec != s {
			t.Fatalf("EncodeHeaderValue(%q) = %q, which decodes to %q, %v", s, enc, dec, err)
		}
		for i := 0; i < len(enc); i++ {
			if enc[i] < 0x20 || enc[i] > 0x7e {
				t.Fatalf("EncodeHeaderValue(%q) = %q has byte %#x", s, enc, enc[i])
			}
		}
		if enc != strings.TrimSpace(enc) {
			t.Fatalf("EncodeHeaderValue(%q) = %q has surrounding space", s, enc)
		}
		if !needsBase64(s) && enc != s {
			t.Fatalf("a plain value %q was encoded as %q", s, enc)
		}

		// The same through the code that builds a call's headers.
		args, _ := json.Marshal(map[string]string{"region": s})
		h, err := ParamHeaders([]HeaderParam{{Path: []string{"region"}, Header: "Region"}}, args)
		if err != nil {
			t.Fatal(err)
		}
		req := &Request{ID: 1, Method: "tools/call", Version: LatestVersion}
		req.Params, _ = json.Marshal(map[string]any{"name": s, "arguments": map[string]string{"region": s}})
		sent := standardHeaders(req)
		for k, v := range h {
			sent[k] = v
		}
		hreq, _ := http.NewRequest(http.MethodPost, "http://example.com/mcp", strings.NewReader("{}"))
		hreq.Header = sent
		var wire bytes.Buffer
		if err := hreq.Write(&wire); err != nil {
			t.Fatalf("writing the request: %v", err)
		}
		got, err := http.ReadRequest(bufio.NewReader(&wire))
		if err != nil {
			t.Fatalf("the request with %q does not parse back: %v\n%s", s, err, wire.String())
		}
		// JSON carries invalid UTF-8 as U+FFFD: the headers mirror the
		// body as sent.
		var inBody string
		_ = json.Unmarshal(must(json.Marshal(s)), &inBody)
		for _, name := range []string{"Mcp-Name", "Mcp-Param-Region"} {
			if v := got.Header.Get(name); v != EncodeHeaderValue(inBody) {
				t.Fatalf("%s arrived as %q for %q", name, v, inBody)
			}
		}
		for name := range got.Header {
			if _, ok := sent[name]; !ok && name != "Content-Length" && name != "User-Agent" && name != "Accept-Encoding" {
				t.Fatalf("a header %q appeared from the value %q", name, s)
			}
		}
	})
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
