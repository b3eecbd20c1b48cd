package output

import (
	"context"
	"strings"
	"testing"
)

func TestRenderTextToolCall(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		tty  bool
		want string
	}{
		{
			name: "text blocks, each ended with a newline",
			raw:  `{"content":[{"type":"text","text":"first"},{"type":"text","text":"second\n"}]}`,
			want: "first\nsecond\n",
		},
		{
			name: "text and image: image described by decoded size, structuredContent not repeated",
			raw: `{"content":[{"type":"text","text":"chart:"},{"type":"image","mimeType":"image/png","data":"` +
				strings.Repeat("AAAA", 320) + `"}],"structuredContent":{"n":1}}`,
			want: "chart:\n[image: image/png, 960 B; use --out FILE to save it]\n",
		},
		{
			name: "kibibytes with one decimal",
			raw:  `{"content":[{"type":"audio","mimeType":"audio/wav","data":"` + strings.Repeat("AAAA", 410) + `"}]}`,
			want: "[audio: audio/wav, 1.2 KiB; use --out FILE to save it]\n",
		},
		{
			name: "structuredContent only: indented JSON in server order with exact numbers",
			raw:  `{"content":[],"structuredContent":{"z":9007199254740993,"a":[1.0e+2]}}`,
			want: "{\n  \"z\": 9007199254740993,\n  \"a\": [\n    1.0e+2\n  ]\n}\n",
		},
		{
			name: "image and structuredContent, no text",
			raw:  `{"content":[{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="}],"structuredContent":{"ok":true}}`,
			want: "[image: image/png, 8 B; use --out FILE to save it]\n{\n  \"ok\": true\n}\n",
		},
		{
			name: "structuredContent repeating the image (server-filesystem): described there too, never base64",
			raw: `{"content":[{"type":"image","data":"iVBORw0KGgphYmM=","mimeType":"image/png"}],` +
				`"structuredContent":{"content":[{"type":"image","data":"iVBORw0KGgphYmM=","mimeType":"image/png"}],"n":9007199254740993,"other":"iVBORw0KGgo="}}`,
			tty: true,
			want: "[image: image/png, 11 B; use --out FILE to save it]\n{\n  \"content\": [\n    {\n      \"type\": \"image\",\n" +
				"      \"data\": \"[image: image/png, 11 B; use --out FILE to save it]\",\n      \"mimeType\": \"image/png\"\n    }\n  ],\n" +
				"  \"n\": 9007199254740993,\n  \"other\": \"iVBORw0KGgo=\"\n}\n",
		},
		{
			name: "several binary items: the hint names a folder",
			raw: `{"content":[{"type":"image","mimeType":"image/png","data":"AAAA"},{"type":"image","mimeType":"image/png","data":"AAAA"},` +
				`{"type":"resource","resource":{"uri":"x:b","blob":"AAAA"}}]}`,
			want: "[image: image/png, 3 B; use --out DIR/ to save each]\n[image: image/png, 3 B; use --out DIR/ to save each]\n" +
				"[blob: x:b, 3 bytes; use --out DIR/ to save each]\n",
		},
		{
			name: "resource link, embedded text and blob, unknown type",
			raw: `{"content":[` +
				`{"type":"resource_link","uri":"file:///src/main.rs","name":"main.rs","mimeType":"text/x-rust"},` +
				`{"type":"resource","resource":{"uri":"file:///a.txt","text":"embedded text"}},` +
				`{"type":"resource","resource":{"uri":"file:///b.bin","mimeType":"application/octet-stream","blob":"AAECAw=="}},` +
				`{"type":"hologram","data":"zzz"}]}`,
			want: "[resource link: main.rs <file:///src/main.rs> (text/x-rust)]\n" +
				"embedded text\n" +
				"[blob: file:///b.bin, application/octet-stream, 4 bytes; use --out FILE to save it]\n" +
				"[hologram content]\n",
		},
		{
			name: "isError results still print their text",
			raw:  `{"content":[{"type":"text","text":"Invalid departure date"}],"isError":true}`,
			want: "Invalid departure date\n",
		},
		{
			name: "terminal: escape sequences in tool text are removed, a bidi override shown",
			raw:  `{"content":[{"type":"text","text":"\u001b]0;owned\u0007safe \u001b[2Jtext\u202e"}]}`,
			tty:  true,
			want: "safe text\\u202e\n",
		},
		{
			name: "pipe: tool text is written as sent",
			raw:  `{"content":[{"type":"text","text":"\u001b[1mraw\u001b[0m"}]}`,
			want: "\x1b[1mraw\x1b[0m\n",
		},
		{
			name: "unexpected shape falls back to indented JSON",
			raw:  `{"resultType":"task","taskId":"t1"}`,
			want: "{\n  \"resultType\": \"task\",\n  \"taskId\": \"t1\"\n}\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := render(t, tc.tty, Options{Format: FormatText}, KindToolCall, tc.raw)
			if got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestRenderTextResourceRead(t *testing.T) {
	blob := strings.Repeat("QUJD", 1000) // "ABC" × 1000
	raw := `{"contents":[` +
		`{"uri":"file:///notes.txt","mimeType":"text/plain","text":"hello"},` +
		`{"uri":"file:///logo.png","mimeType":"image/png","blob":"` + blob + `"},` +
		`{"uri":"file:///raw","blob":"AA=="}]}`
	want := "hello\n" +
		"[blob: file:///logo.png, image/png, 3000 bytes; use --out FILE to save it]\n" +
		"[blob: file:///raw, 1 bytes; use --out FILE to save it]\n"
	for _, tty := range []bool{false, true} {
		t.Run(mode(tty), func(t *testing.T) {
			got := render(t, tty, Options{Format: FormatText}, KindResourceRead, raw)
			if got != want {
				t.Errorf("got\n%q\nwant\n%q", got, want)
			}
			if strings.Contains(got, "QUJD") || strings.Contains(got, "ABC") {
				t.Error("blob content leaked into text output")
			}
		})
	}
}

func TestRenderTextPromptGet(t *testing.T) {
	raw := `{"description":"Code review prompt","messages":[` +
		`{"role":"user","content":{"type":"text","text":"Please review:\ndef f(): pass"}},` +
		`{"role":"assistant","content":{"type":"image","mimeType":"image/png","data":"AAAA"}}]}`
	want := "Code review prompt\n\nuser: Please review:\ndef f(): pass\nassistant: [image: image/png, 3 B]\n"
	if got := render(t, false, Options{Format: FormatText}, KindPromptGet, raw); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestRenderTextLists(t *testing.T) {
	tests := []struct {
		name string
		kind Kind
		raw  string
		tty  bool
		want string
	}{
		{
			name: "tools with arguments, required marked, cursor noted",
			kind: KindToolsList, raw: toolsList, tty: true,
			want: "get_weather — Get current weather for a location.\n" +
				"    args: location*\n" +
				"echo — Echo back the input\n" +
				"(more results; next cursor: abc)\n",
		},
		{
			name: "prompts",
			kind: KindPromptsList,
			raw:  `{"prompts":[{"name":"review","description":"Review code","arguments":[{"name":"code","required":true},{"name":"style"}]},{"name":"bare"}]}`,
			want: "review — Review code\n    args: code*, style\nbare\n",
		},
		{
			name: "resources",
			kind: KindResourcesList,
			raw:  `{"resources":[{"uri":"file:///a.rs","name":"a.rs","mimeType":"text/x-rust","description":"Entry point\nmore"},{"uri":"mem://x"}]}`,
			want: "a.rs <file:///a.rs> (text/x-rust) — Entry point\n<mem://x>\n",
		},
		{
			name: "templates",
			kind: KindTemplatesList,
			raw:  `{"resourceTemplates":[{"uriTemplate":"file:///{path}","name":"files"}]}`,
			want: "files <file:///{path}>\n",
		},
		{
			name: "a newline in a name cannot forge a second entry",
			kind: KindPromptsList,
			raw:  `{"prompts":[{"name":"real\nfake — trusted"}]}`,
			want: "real fake — trusted\n",
		},
		{
			name: "completion values one per line",
			kind: KindComplete,
			raw:  `{"completion":{"values":["flask","fastapi"],"hasMore":true}}`,
			want: "flask\nfastapi\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := render(t, tc.tty, Options{Format: FormatText}, tc.kind, tc.raw)
			if got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestRenderTextDiscover(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want string
	}{
		{
			name: "server/discover",
			raw: `{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25"],` +
				`"capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":false},"logging":{}},` +
				`"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"Example","version":"1.0.0","title":"Example Server"}},` +
				`"instructions":"Use get_weather.\nBe nice."}`,
			want: "Server: Example 1.0.0 (Example Server)\n" +
				"Protocol versions: 2026-07-28, 2025-11-25\n" +
				"Capabilities: tools (listChanged), resources (subscribe), logging\n" +
				"Instructions:\n  Use get_weather.\n  Be nice.\n",
		},
		{
			name: "legacy initialize result",
			raw:  `{"protocolVersion":"2025-06-18","capabilities":{"prompts":{}},"serverInfo":{"name":"old","version":"0.1"}}`,
			want: "Server: old 0.1\nProtocol versions: 2025-06-18\nCapabilities: prompts\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := render(t, false, Options{Format: FormatText}, KindDiscover, tc.raw)
			if got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestRenderTextGeneric(t *testing.T) {
	raw := "{\"z\":1,\"a\":\"x\u202ey\"}"
	for _, tc := range []struct {
		tty  bool
		want string
	}{
		{false, "{\n  \"z\": 1,\n  \"a\": \"x\u202ey\"\n}\n"},
		{true, "{\n  \"z\": 1,\n  \"a\": \"x\\u202ey\"\n}\n"},
	} {
		t.Run(mode(tc.tty), func(t *testing.T) {
			if got := render(t, tc.tty, Options{Format: FormatText}, KindGeneric, raw); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestHumanSize(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1229, "1.2 KiB"},
		{5 << 20, "5.0 MiB"}, {3 << 30, "3.0 GiB"},
	}
	for _, tc := range tests {
		if got := humanSize(tc.n); got != tc.want {
			t.Errorf("humanSize(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	for s, want := range map[string]int{"": 0, "AA==": 1, "AAA=": 2, "AAAA": 3, "AAA": 2, "AAAA\nAAAA": 6} {
		if got := base64Size(s); got != want {
			t.Errorf("base64Size(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestTextConfigList(t *testing.T) {
	raw := `{"servers":[{"name":"w","kind":"http","target":"https://w/mcp","source":"~/c.yaml"},` +
		`{"name":"b","kind":"stdio","target":"x","source":"~/c.yaml","problem":"has both url and command"}]}`
	// A pipe keeps two spaces between fields (issue 15 item 6 changed only
	// the terminal layout).
	want := "w  http  https://w/mcp  (~/c.yaml)\nb  stdio  x  (~/c.yaml)  unusable: has both url and command\n"
	if got := render(t, false, Options{Format: FormatText}, KindConfigList, raw); got != want {
		t.Errorf("pipe: got:\n%s\nwant:\n%s", got, want)
	}
	want = "w  http   https://w/mcp  (~/c.yaml)\nb  stdio  x              (~/c.yaml)  unusable: has both url and command\n"
	if got := render(t, true, Options{Format: FormatText}, KindConfigList, raw); got != want {
		t.Errorf("tty: got:\n%s\nwant:\n%s", got, want)
	}
	// A name another source takes first says which.
	raw = `{"servers":[{"name":"w","kind":"http","target":"https://w/mcp","source":"~/c.yaml"},` +
		`{"name":"w","kind":"stdio","target":"x","source":".mcp.json","shadowedBy":"~/c.yaml"}]}`
	want = "w  http  https://w/mcp  (~/c.yaml)\nw  stdio  x  (.mcp.json)  shadowed by ~/c.yaml\n"
	if got := render(t, false, Options{Format: FormatText}, KindConfigList, raw); got != want {
		t.Errorf("shadowed: got:\n%s\nwant:\n%s", got, want)
	}
	// A project file's entry not used says why, and how to use it.
	raw = `{"servers":[{"name":"u","kind":"stdio","target":"x","source":"/p/.mcp.json","file":"/p/.mcp.json","trust":"untrusted"},` +
		`{"name":"c","kind":"stdio","target":"x","source":"/p/.mcp.json","file":"/p/.mcp.json","trust":"changed"},` +
		`{"name":"f","kind":"stdio","target":"x","source":"/q/.mcp.json","file":"/q/.mcp.json","trust":"trust-project"},` +
		`{"name":"t","kind":"stdio","target":"x","source":"/r/.mcp.json","file":"/r/.mcp.json","trust":"trusted"}]}`
	want = "u  stdio  x  (/p/.mcp.json)  untrusted: not used until 'mcpctl config trust /p/.mcp.json'\n" +
		"c  stdio  x  (/p/.mcp.json)  changed since trusted: not used until 'mcpctl config trust /p/.mcp.json'\n" +
		"f  stdio  x  (/q/.mcp.json)  trusted by --trust-project\n" +
		"t  stdio  x  (/r/.mcp.json)\n"
	if got := render(t, false, Options{Format: FormatText}, KindConfigList, raw); got != want {
		t.Errorf("trust: got:\n%s\nwant:\n%s", got, want)
	}
	if got := render(t, true, Options{Format: FormatText}, KindConfigList, `{"servers":[]}`); !strings.HasPrefix(got, "no servers configured; add one with 'mcpctl config add NAME --url URL'") {
		t.Errorf("empty: %q", got)
	}
}

// TestTextConfigListAligned: at a terminal the columns line up by cells
// (a CJK name is two cells a character), names are sanitised before they
// are measured, and colour does not count towards the width (issue 15
// item 6).
func TestTextConfigListAligned(t *testing.T) {
	raw := `{"servers":[{"name":"天気","kind":"http","target":"https://w/mcp","source":"~/c.yaml"},` +
		`{"name":"a\u001b[2Jb","kind":"stdio","target":"npx srv","source":".mcp.json"},` +
		`{"name":"longer-name","kind":"sse","target":"https://old/sse","source":"~/c.yaml"}]}`
	want := "天気         http   https://w/mcp    (~/c.yaml)\n" +
		"a\\u001b[2Jb  stdio  npx srv          (.mcp.json)\n" +
		"longer-name  sse    https://old/sse  (~/c.yaml)\n"
	if got := render(t, true, Options{Format: FormatText}, KindConfigList, raw); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	ios, _, out, _ := Test()
	ios.SetStdoutTTY(true)
	ios.SetColorEnabled(true)
	if err := Render(context.Background(), ios, Options{Format: FormatText}, KindConfigList, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	plain := strings.NewReplacer("\x1b[1m", "", "\x1b[0m", "").Replace(out.String())
	if plain != want || !strings.Contains(out.String(), "\x1b[1m天気\x1b[0m         http") {
		t.Errorf("with colour: %q", out.String())
	}
}
