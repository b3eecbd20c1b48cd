package output

import (
	"bytes"
	"strings"
)

type table struct {
	headers []string
	rows    [][]string
}

const columnGap = 2

// buildTable picks columns for the list kinds; anything else becomes a
// KEY/VALUE table of the top-level object, so every result has a table form.
func buildTable(kind Kind, v *value, opts Options) *table {
	switch kind {
	case KindToolsList:
		if items, ok := v.array("tools"); ok {
			return listTable(items, []string{"NAME", "DESCRIPTION"}, func(t *value) []string {
				return []string{t.str("name"), firstLine(t.str("description"))}
			})
		}
	case KindResourcesList:
		if items, ok := v.array("resources"); ok {
			return listTable(items, []string{"URI", "NAME", "MIME TYPE"}, func(r *value) []string {
				return []string{r.str("uri"), r.str("name"), r.str("mimeType")}
			})
		}
	case KindTemplatesList:
		if items, ok := v.array("resourceTemplates"); ok {
			return listTable(items, []string{"URI TEMPLATE", "NAME", "MIME TYPE"}, func(r *value) []string {
				return []string{r.str("uriTemplate"), r.str("name"), r.str("mimeType")}
			})
		}
	case KindSkillsList:
		if items, ok := v.array("skills"); ok {
			return skillsTable(items, opts.SkillPath)
		}
	case KindPromptsList:
		if items, ok := v.array("prompts"); ok {
			return listTable(items, []string{"NAME", "ARGUMENTS", "DESCRIPTION"}, func(p *value) []string {
				return []string{p.str("name"), strings.Join(promptArgs(p), ", "), firstLine(p.str("description"))}
			})
		}
	case KindCacheList:
		if items, ok := v.array("entries"); ok {
			return listTable(items, []string{"METHOD", "PARAMS", "SERVER", "AGE", "TTL", "FRESH"}, func(e *value) []string {
				return []string{e.str("method"), e.get("params").display(), e.str("server"), e.str("age"), e.str("ttl"), e.get("fresh").display()}
			})
		}
	case KindTasksList:
		if items, ok := v.array("tasks"); ok {
			return listTable(items, []string{"TASK ID", "STATUS", "SERVER", "CREATED"}, func(t *value) []string {
				return []string{t.str("taskId"), t.str("status"), t.str("server"), t.str("createdAt")}
			})
		}
	case KindConfigList:
		if items, ok := v.array("servers"); ok {
			return listTable(items, []string{"NAME", "KIND", "TARGET", "SOURCE"}, func(s *value) []string {
				src := s.str("source")
				if by := s.str("shadowedBy"); by != "" {
					src += ", shadowed by " + by
				}
				if trust := trustNote(s.str("trust")); trust != "" {
					src += ", " + trust
				}
				return []string{s.str("name"), s.str("kind"), s.str("target"), src}
			})
		}
	case KindToolCall:
		if t, ok := rowsTable(v); ok {
			return t
		}
	case KindToolDescribe:
		if t, ok := describeTable(v); ok {
			return t
		}
	case KindComplete:
		if items, ok := v.get("completion").array("values"); ok {
			return listTable(items, []string{"VALUES"}, func(c *value) []string {
				return []string{c.display()}
			})
		}
	}
	return genericTable(v)
}

// rowsTable reads a tool result whose one content item is text holding a
// JSON array of objects, as server-postgres answers a query, as the rows
// it holds: a column per key in the order the keys first appear, a cell
// empty where a row lacks the key, nested values as JSON, numbers as
// written. ok is false for anything else (an error result, another item
// beside the text, text that is not such an array, an empty array, which
// has no columns to show), which stays a key/value table of the result.
func rowsTable(v *value) (*table, bool) {
	content, ok := v.array("content")
	if !ok || len(content) != 1 || v.isTrue("isError") || content[0].str("type") != "text" {
		return nil, false
	}
	text := content[0].get("text")
	if !text.is(kindString) {
		return nil, false
	}
	rows, err := parseValue([]byte(text.text()))
	if err != nil || !rows.is(kindArray) {
		return nil, false
	}
	items := rows.items()
	if len(items) == 0 {
		return nil, false
	}
	t := &table{}
	column := map[string]int{}
	for _, it := range items {
		if !it.is(kindObject) {
			return nil, false
		}
		for _, k := range it.keys() {
			if _, seen := column[k]; !seen {
				column[k] = len(t.headers)
				t.headers = append(t.headers, k)
			}
		}
	}
	for _, it := range items {
		row := make([]string, len(t.headers))
		for _, k := range it.keys() {
			row[column[k]] = it.get(k).display()
		}
		t.rows = append(t.rows, row)
	}
	return t, true
}

func listTable(items []*value, headers []string, row func(*value) []string) *table {
	t := &table{headers: headers}
	for _, it := range items {
		t.rows = append(t.rows, row(it))
	}
	return t
}

// promptArgs names a prompt's arguments, required ones marked with "*".
func promptArgs(p *value) []string {
	args, _ := p.array("arguments")
	var names []string
	for _, a := range args {
		n := a.str("name")
		if a.isTrue("required") {
			n += "*"
		}
		names = append(names, n)
	}
	return names
}

func genericTable(v *value) *table {
	if v.kind() == kindObject {
		t := &table{headers: []string{"KEY", "VALUE"}}
		for _, k := range v.keys() {
			t.rows = append(t.rows, []string{k, v.get(k).display()})
		}
		return t
	}
	t := &table{headers: []string{"VALUE"}}
	items := v.items()
	if v.kind() != kindArray {
		items = []*value{v}
	}
	for _, it := range items {
		t.rows = append(t.rows, []string{it.display()})
	}
	return t
}

// freeColumn: the columns of free text. The others hold names, URIs, keys
// and values a user may type back, which a terminal gets with every
// character it would not show written as an escape (SanitizeName).
func freeColumn(header string) bool { return header == "DESCRIPTION" || header == "VALUE" }

// write lays the table out. A pipe gets tab-separated cells with the header
// row and nothing cut, so `cut -f` and awk see whole values; a terminal gets
// padded columns fitted to width.
func (t *table) write(w *bytes.Buffer, ios *IOStreams, width int) {
	cells := make([][]string, 0, len(t.rows)+1)
	// Headers are mcpctl's words, or a server's keys (rowsTable): cleaned
	// as the cells are.
	head := make([]string, len(t.headers))
	for i, h := range t.headers {
		if ios.IsStdoutTTY() {
			head[i] = SanitizeName(h)
		} else {
			head[i] = SanitizeLine(h)
		}
	}
	cells = append(cells, head)
	for _, r := range t.rows {
		clean := make([]string, len(t.headers))
		for i := range clean {
			switch {
			case i >= len(r):
			case ios.IsStdoutTTY() && !freeColumn(t.headers[i]):
				clean[i] = SanitizeName(r[i])
			default:
				clean[i] = SanitizeLine(r[i])
			}
		}
		cells = append(cells, clean)
	}
	if !ios.IsStdoutTTY() {
		for _, r := range cells {
			w.WriteString(strings.Join(r, "\t"))
			w.WriteByte('\n')
		}
		return
	}
	widths := fitColumns(cells, width)
	last := len(widths) - 1
	for ri, r := range cells {
		var line strings.Builder
		for i, c := range r {
			c = Truncate(c, widths[i])
			if i < last {
				c = pad(c, widths[i]) + strings.Repeat(" ", columnGap)
			}
			line.WriteString(c)
		}
		s := strings.TrimRight(line.String(), " ")
		if ri == 0 {
			s = bold(ios, s)
		}
		w.WriteString(s)
		w.WriteByte('\n')
	}
}

// fitColumns gives each column its natural width if the terminal allows.
// Otherwise the last column, usually a free-text description, gives way
// first (down to a third of the line), then the widest of the others.
func fitColumns(cells [][]string, width int) []int {
	n := len(cells[0])
	widths := make([]int, n)
	for _, r := range cells {
		for i, c := range r {
			widths[i] = max(widths[i], DisplayWidth(c))
		}
	}
	avail := width - columnGap*(n-1)
	over := sum(widths) - avail
	if over <= 0 {
		return widths
	}
	last := n - 1
	floor := min(widths[last], max(avail/3, 10))
	cut := min(over, widths[last]-floor)
	widths[last] -= cut
	over -= cut
	for over > 0 {
		widest := -1
		for i := 0; i < last; i++ {
			if widths[i] > 8 && (widest < 0 || widths[i] > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break // a terminal this narrow wraps whatever we do
		}
		widths[widest]--
		over--
	}
	return widths
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// bold is the only colour the renderers use: headers and names stand out,
// nothing else changes, and pipes never see an escape code.
func bold(ios *IOStreams, s string) string {
	if !ios.ColorEnabled() || s == "" {
		return s
	}
	return "\x1b[1m" + s + "\x1b[0m"
}
