package output

import (
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Names, URIs and keys with invisible or direction-changing characters,
// in every format (issue 13, item 9): a terminal shows each such
// character as an escape; a pipe gets JSON byte for byte and text as the
// server wrote it; descriptions keep what prose needs.
const invisibleList = `{"tools":[{"name":"del` + "\u200b" + `ete_all","description":"` + "👩\u200d💻" + ` deletes",` +
	`"inputSchema":{"type":"object","properties":{"pa` + "\u2066" + `th":{"type":"string"}}}},` +
	`{"name":"` + "\u202e" + `evil","description":"x"},{"name":"tag` + "\U000e0041" + `","description":"y"}],"nextCursor":"c` + "\ufeff" + `"}`

func TestInvisibleNames(t *testing.T) {
	tests := []struct {
		format Format
		tty    bool
		want   []string
		not    []string
	}{
		{FormatText, true,
			[]string{`del\u200bete_all — ` + "👩\u200d💻" + ` deletes`, `    args: pa\u2066th`, `\u202eevil — x`, `tag\U000e0041 — y`, `next cursor: c\ufeff)`},
			[]string{"\u200b", "\u202e", "\ufeff"}},
		{FormatText, false, []string{"del\u200bete_all — ", "\u202eevil — x"}, []string{`\u`}},
		{FormatTable, true, []string{`del\u200bete_all`, `\u202eevil`, `tag\U000e0041`, "👩\u200d💻 deletes"}, []string{"\u200b", "\u202e"}},
		{FormatJSON, true, []string{`"name": "del\u200bete_all"`, `"\u202eevil"`, `"tag\udb40\udc41"`, `"pa\u2066th"`, "👩\\u200d💻 deletes"},
			[]string{"\u200b", "\u202e", "\U000e0041", "\u200d"}},
		{FormatYAML, true, []string{`name: "del\u200Bete_all"`, `name: "\u202Eevil"`, `name: "tag\U000E0041"`, `"pa\u2066th":`, `"c\uFEFF"`},
			[]string{"\u200b", "\u202e", "\U000e0041", "\ufeff"}},
	}
	for _, tc := range tests {
		t.Run(string(tc.format)+"/"+mode(tc.tty), func(t *testing.T) {
			got := render(t, tc.tty, Options{Format: tc.format, Width: 200}, KindToolsList, invisibleList)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("no %q in:\n%s", w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("%q passed through:\n%s", n, got)
				}
			}
		})
	}
	if got := render(t, false, Options{Format: FormatJSON}, KindToolsList, invisibleList); got != invisibleList+"\n" {
		t.Errorf("JSON to a pipe is not the server's bytes:\n%q", got)
	}
}

// The escapes are spellings of the same characters: JSON and YAML read
// back as what the server sent.
func TestInvisibleNamesReadBack(t *testing.T) {
	var want any
	if err := json.Unmarshal([]byte(invisibleList), &want); err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{FormatJSON, FormatYAML} {
		out := render(t, true, Options{Format: f}, KindToolsList, invisibleList)
		var got any
		var err error
		if f == FormatJSON {
			err = json.Unmarshal([]byte(out), &got)
		} else {
			err = yaml.Unmarshal([]byte(out), &got)
		}
		if err != nil {
			t.Fatalf("%s: %v\n%s", f, err, out)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s reads back as\n%s\nnot\n%s", f, g, w)
		}
	}
}
