package output

import (
	"context"
	"strings"
	"testing"
)

const toolsList = `{"tools":[
 {"name":"get_weather","description":"Get current weather for a location.\nSecond line is not shown.","inputSchema":{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}},
 {"name":"echo","description":"Echo \u001b[31mback\u001b[0m\tthe input","inputSchema":{"type":"object"}}
],"nextCursor":"abc"}`

func TestRenderTable(t *testing.T) {
	tests := []struct {
		name  string
		kind  Kind
		raw   string
		tty   bool
		width int
		want  string
	}{
		{
			name: "tools on a pipe: tab-separated, header, first line only, nothing cut",
			kind: KindToolsList, raw: toolsList,
			want: "NAME\tDESCRIPTION\n" +
				"get_weather\tGet current weather for a location.\n" +
				"echo\tEcho back the input\n",
		},
		{
			name: "tools on a terminal: padded columns",
			kind: KindToolsList, raw: toolsList, tty: true, width: 80,
			want: "NAME         DESCRIPTION\n" +
				"get_weather  Get current weather for a location.\n" +
				"echo         Echo back the input\n",
		},
		{
			name: "tools on a narrow terminal: last column cut with an ellipsis",
			kind: KindToolsList, raw: toolsList, tty: true, width: 30,
			want: "NAME         DESCRIPTION\n" +
				"get_weather  Get current weat…\n" +
				"echo         Echo back the in…\n",
		},
		{
			name: "resources",
			kind: KindResourcesList, tty: true, width: 80,
			raw: `{"resources":[{"uri":"file:///a.txt","name":"a","mimeType":"text/plain"},{"uri":"mem://b","name":"b"}]}`,
			want: "URI            NAME  MIME TYPE\n" +
				"file:///a.txt  a     text/plain\n" +
				"mem://b        b\n",
		},
		{
			name: "configured servers",
			kind: KindConfigList, tty: true, width: 80,
			raw: `{"servers":[{"name":"weather","kind":"http","target":"https://w.example/mcp","source":"~/.config/mcpctl/config.yaml","format":"mcpctl"},` +
				`{"name":"fs","kind":"stdio","target":"npx -y server-filesystem","source":"~/.cursor/mcp.json","format":"cursor"}]}`,
			want: "NAME     KIND   TARGET                    SOURCE\n" +
				"weather  http   https://w.example/mcp     ~/.config/mcpctl/config.yaml\n" +
				"fs       stdio  npx -y server-filesystem  ~/.cursor/mcp.json\n",
		},
		{
			name: "a shadowed server says by what",
			kind: KindConfigList,
			raw: `{"servers":[{"name":"w","kind":"http","target":"https://w/mcp","source":"~/c.yaml"},` +
				`{"name":"w","kind":"stdio","target":"x","source":".mcp.json","shadowedBy":"~/c.yaml"}]}`,
			want: "NAME\tKIND\tTARGET\tSOURCE\nw\thttp\thttps://w/mcp\t~/c.yaml\nw\tstdio\tx\t.mcp.json, shadowed by ~/c.yaml\n",
		},
		{
			name: "a project file's entry not used says why",
			kind: KindConfigList,
			raw: `{"servers":[{"name":"u","kind":"stdio","target":"x","source":"/p/.mcp.json","trust":"untrusted"},` +
				`{"name":"c","kind":"stdio","target":"x","source":"/p/.mcp.json","trust":"changed"},{"name":"t","kind":"stdio","target":"x","source":"/r/.mcp.json","trust":"trusted"}]}`,
			want: "NAME\tKIND\tTARGET\tSOURCE\nu\tstdio\tx\t/p/.mcp.json, untrusted\nc\tstdio\tx\t/p/.mcp.json, changed since trusted\nt\tstdio\tx\t/r/.mcp.json\n",
		},
		{
			name: "templates on a pipe keep empty cells",
			kind: KindTemplatesList,
			raw:  `{"resourceTemplates":[{"uriTemplate":"file:///{path}","name":"files"}]}`,
			want: "URI TEMPLATE\tNAME\tMIME TYPE\nfile:///{path}\tfiles\t\n",
		},
		{
			name: "prompts mark required arguments",
			kind: KindPromptsList,
			raw:  `{"prompts":[{"name":"review","description":"Review code","arguments":[{"name":"code","required":true},{"name":"style"}]}]}`,
			want: "NAME\tARGUMENTS\tDESCRIPTION\nreview\tcode*, style\tReview code\n",
		},
		{
			name: "completion values",
			kind: KindComplete,
			raw:  `{"completion":{"values":["python","pytorch"],"total":2,"hasMore":false}}`,
			want: "VALUES\npython\npytorch\n",
		},
		{
			name: "other kinds: key/value of the top-level object, nested values as JSON",
			kind: KindToolCall,
			raw:  `{"z":"text","a":{"n":9007199254740993,"s":"<&>"},"b":[1,2]}`,
			want: "KEY\tVALUE\nz\ttext\na\t{\"n\":9007199254740993,\"s\":\"<&>\"}\nb\t[1,2]\n",
		},
		{
			name: "a list kind without its list falls back to key/value",
			kind: KindToolsList,
			raw:  `{"error":"nope"}`,
			want: "KEY\tVALUE\nerror\tnope\n",
		},
		{
			name: "wide characters are measured in cells",
			kind: KindResourcesList, tty: true, width: 80,
			raw: `{"resources":[{"uri":"x","name":"日本語"},{"uri":"y","name":"ab"}]}`,
			want: "URI  NAME    MIME TYPE\n" +
				"x    日本語\n" +
				"y    ab\n",
		},
		// Issue 14 item 6: emoji as a terminal draws them. ✅ is two cells
		// (it was counted one), 👍🏽 (thumbs up, skin tone) one glyph of
		// two cells (it was counted four, its two runes' sum).
		{
			name: "emoji and grapheme clusters are measured in cells",
			kind: KindResourcesList, tty: true, width: 80,
			raw: `{"resources":[{"uri":"✅","name":"a"},{"uri":"👍🏽","name":"b"},{"uri":"xyz","name":"c"}]}`,
			want: "URI  NAME  MIME TYPE\n" +
				"✅   a\n" +
				"👍🏽   b\n" +
				"xyz  c\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := render(t, tc.tty, Options{Format: FormatTable, Width: tc.width}, tc.kind, tc.raw)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestTableWidthFromStreams(t *testing.T) {
	ios, _, out, _ := Test()
	ios.SetStdoutTTY(true)
	ios.SetTerminalWidth(25)
	if err := Render(context.Background(), ios, Options{Format: FormatTable}, KindToolsList, []byte(toolsList)); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		if w := DisplayWidth(line); w > 25 {
			t.Errorf("line %q is %d cells wide, want at most 25", line, w)
		}
	}
}

func TestTableColour(t *testing.T) {
	for _, tty := range []bool{false, true} {
		t.Run(mode(tty), func(t *testing.T) {
			ios, _, out, _ := Test()
			ios.SetStdoutTTY(tty)
			ios.SetColorEnabled(true)
			if err := Render(context.Background(), ios, Options{Format: FormatTable}, KindComplete, []byte(`{"completion":{"values":["a"]}}`)); err != nil {
				t.Fatal(err)
			}
			want := "VALUES\na\n"
			if tty {
				want = "\x1b[1mVALUES\x1b[0m\na\n"
			}
			if out.String() != want {
				t.Errorf("got %q, want %q", out.String(), want)
			}
		})
	}
}

func TestFitColumns(t *testing.T) {
	cells := [][]string{{"URI", "NAME", "DESCRIPTION"}, {strings.Repeat("u", 60), "name", strings.Repeat("d", 100)}}
	got := fitColumns(cells, 80)
	if total := got[0] + got[1] + got[2] + 2*columnGap; total != 80 {
		t.Errorf("widths %v use %d cells, want 80", got, total)
	}
	if got[2] < 10 {
		t.Errorf("last column squeezed to %d", got[2])
	}
	if got[1] != 4 {
		t.Errorf("narrow column changed to %d", got[1])
	}
}

// Issue 14 item 6: a cut is measured in cells and never splits a grapheme
// cluster (👍🏽 is one glyph: the skin tone stays with the thumb).
func TestTruncateCells(t *testing.T) {
	for _, tc := range []struct {
		s    string
		w    int
		want string
	}{
		{"abcdef", 4, "abc…"},
		{"abc", 3, "abc"},
		{"abc", 0, ""},
		{"✅✅✅", 5, "✅✅…"},
		{"✅✅✅", 6, "✅✅✅"},
		{"👍🏽abc", 4, "👍🏽a…"},
		{"👍🏽👍🏽👍🏽", 6, "👍🏽👍🏽👍🏽"},
		{"👍🏽👍🏽👍🏽", 5, "👍🏽👍🏽…"},
		{"日本語", 4, "日…"},
	} {
		got := Truncate(tc.s, tc.w)
		if got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.s, tc.w, got, tc.want)
		}
		if w := DisplayWidth(got); w > tc.w {
			t.Errorf("Truncate(%q, %d) is %d cells", tc.s, tc.w, w)
		}
	}
	for s, want := range map[string]int{"✅": 2, "👍🏽": 2, "👍": 2, "e\u0301": 1, "日本": 4, "a\u200bb": 2, "🇳🇴": 2} {
		if got := DisplayWidth(s); got != want {
			t.Errorf("DisplayWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

// Issue 25, item 5: a tool result whose one content item is text holding
// a JSON array of objects (server-postgres's answer to a query) is a
// table of those rows; anything else is the key/value table it was.
func TestRenderTableRows(t *testing.T) {
	rows := `[\n  {\n    \"id\": 1,\n    \"name\": \"Ada\",\n    \"tags\": [\"math\"],\n    \"boss\": null\n  },\n  {\n    \"id\": 9007199254740993,\n    \"name\": \"Grace\\tHopper\",\n    \"boss\": 1,\n    \"note\": \"navy\"\n  }\n]`
	result := func(content string) string { return `{"content":[` + content + `],"isError":false}` }
	text := func(s string) string { return `{"type":"text","text":"` + s + `"}` }
	keyValue := func(raw string) string {
		v, err := parseValue([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return "KEY\tVALUE\ncontent\t" + v.get("content").compact() + "\n" + map[bool]string{true: "isError\ttrue\n", false: "isError\tfalse\n"}[v.isTrue("isError")]
	}
	tests := []struct {
		name, raw string
		tty       bool
		want      string // "" for the key/value table
	}{
		{
			name: "a pipe: a column per key in first-seen order, empty cells, JSON for the rest, numbers as written",
			raw:  result(text(rows)),
			want: "id\tname\ttags\tboss\tnote\n" +
				"1\tAda\t[\"math\"]\tnull\t\n" +
				"9007199254740993\tGrace Hopper\t\t1\tnavy\n",
		},
		{
			name: "a terminal: padded columns",
			raw:  result(text(`[{\"id\":1,\"name\":\"Ada\"},{\"id\":22,\"name\":\"Grace\"}]`)),
			tty:  true,
			want: "id  name\n1   Ada\n22  Grace\n",
		},
		{
			name: "a server's keys as headers are cleaned like cells",
			raw:  result(text(`[{\"a\\u001b[2J\":1}]`)),
			tty:  true,
			want: "a\\u001b[2J\n1\n",
		},
		{name: "an error result", raw: `{"content":[` + text(`[{\"a\":1}]`) + `],"isError":true}`},
		{name: "another content item beside the text", raw: result(text(`[{\"a\":1}]`) + `,` + text(`done`))},
		{name: "an image, not text", raw: result(`{"type":"image","data":"AAAA","mimeType":"image/png"}`)},
		{name: "text that is not JSON", raw: result(text(`[{\"a\":1}] and more`))},
		{name: "an array that is not all objects", raw: result(text(`[{\"a\":1},2]`))},
		{name: "a JSON object", raw: result(text(`{\"a\":1}`))},
		{name: "an empty array: no columns to show", raw: result(text(`[]`))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == "" {
				want = keyValue(tc.raw)
			}
			got := render(t, tc.tty, Options{Format: FormatTable, Width: 80}, KindToolCall, tc.raw)
			if got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// Issue 25, item 5: describe as a table is a row per parameter and per
// field below one, named by its request-item key, with its type, whether
// it is required, its default and what it allows in columns of their own.
func TestRenderTableDescribe(t *testing.T) {
	raw := `{"name":"edit_file","description":"Edit","inputSchema":{"type":"object","properties":{
	    "path":{"type":"string","minLength":1,"description":"File to edit\nwithin the roots"},
	    "edits":{"type":"array","minItems":1,"maxItems":50,"items":{"type":"object","properties":{
	      "oldText":{"type":"string","minLength":1},
	      "match":{"type":"string","enum":["exact","whitespace"],"default":"exact"},
	      "line":{"type":"integer","minimum":1,"maximum":1000000}},"required":["oldText"]}},
	    "dryRun":{"type":"boolean","default":false}},"required":["path","edits"]},
	  "outputSchema":{"type":"object","properties":{"diff":{"type":"string"}}}}`
	got := render(t, false, Options{Format: FormatTable}, KindToolDescribe, raw)
	want := "PARAMETER\tTYPE\tREQUIRED\tDEFAULT\tALLOWED\tDESCRIPTION\n" +
		"path\tstring\tyes\t\tat least 1 character\tFile to edit\n" +
		"edits\tobject[]\tyes\t\t1 to 50 items\t\n" +
		"edits[0][oldText]\tstring\tyes\t\tat least 1 character\t\n" +
		"edits[0][match]\tstring\t\t\"exact\"\tone of: \"exact\" | \"whitespace\"\t\n" +
		"edits[0][line]\tinteger\t\t\t>= 1, <= 1000000\t\n" +
		"dryRun\tboolean\t\tfalse\t\t\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Alternatives follow one another; a tool without parameters is the
	// header alone.
	got = render(t, false, Options{Format: FormatTable}, KindToolDescribe, `{"name":"find","inputSchema":{"type":"object","oneOf":[
	  {"properties":{"id":{"type":"string"}},"required":["id"]},{"properties":{"name":{"type":"string"}}}]}}`)
	if want := "PARAMETER\tTYPE\tREQUIRED\tDEFAULT\tALLOWED\tDESCRIPTION\nid\tstring\tyes\t\t\t\nname\tstring\t\t\t\t\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = render(t, false, Options{Format: FormatTable}, KindToolDescribe, `{"name":"now","inputSchema":{"type":"object"}}`)
	if want := "PARAMETER\tTYPE\tREQUIRED\tDEFAULT\tALLOWED\tDESCRIPTION\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
