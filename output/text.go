package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// textWriter collects human output. On a terminal every server string goes
// through Sanitize; on a pipe the text is the server's own (a user who asked
// for text there wants the content, not a safe rendering of it).
type textWriter struct {
	b    *bytes.Buffer
	ios  *IOStreams
	tty  bool
	opts Options
}

func (t *textWriter) clean(s string) string {
	if t.tty {
		return Sanitize(s)
	}
	return s
}

// block writes server text and ends it with a newline unless it already has
// one, so consecutive blocks never run together.
func (t *textWriter) block(s string) {
	s = t.clean(s)
	t.b.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		t.b.WriteByte('\n')
	}
}

// linef writes one line of our own wording; arguments that come from the
// server must already be cleaned.
func (t *textWriter) linef(format string, args ...any) {
	fmt.Fprintf(t.b, format, args...)
	t.b.WriteByte('\n')
}

func (t *textWriter) bold(s string) string { return bold(t.ios, s) }

// json writes a value as indented JSON: exact, in server order, with
// terminal-active characters escaped on a terminal.
func (t *textWriter) json(v *value) {
	var b bytes.Buffer
	if json.Indent(&b, v.raw, "", "  ") != nil {
		b.Reset()
		b.Write(v.raw)
	}
	out := b.Bytes()
	if t.tty {
		out = escapeTerminalRunes(out)
	}
	t.b.Write(out)
	t.b.WriteByte('\n')
}

func writeText(t *textWriter, kind Kind, v *value) {
	var ok bool
	switch kind {
	case KindToolCall:
		ok = textToolCall(t, v)
	case KindResourceRead:
		ok = textResourceRead(t, v)
	case KindPromptGet:
		ok = textPromptGet(t, v)
	case KindToolsList, KindPromptsList:
		ok = textNamedList(t, kind, v)
	case KindResourcesList, KindTemplatesList:
		ok = textResourceList(t, kind, v)
	case KindSkillsList:
		ok = textSkillsList(t, v)
	case KindToolDescribe:
		ok = textDescribe(t, v)
	case KindDiscover:
		ok = textDiscover(t, v)
	case KindComplete:
		ok = textComplete(t, v)
	case KindCacheList:
		ok = textCacheList(t, v)
	case KindTasksList:
		ok = textTasksList(t, v)
	case KindConfigList:
		ok = textConfigList(t, v)
	}
	// A result that does not have the expected shape is still shown in full
	// rather than half-rendered.
	if !ok {
		t.json(v)
	}
}

func textToolCall(t *textWriter, v *value) bool {
	content, hasContent := v.array("content")
	structured := v.get("structuredContent")
	if !hasContent && structured == nil {
		return false
	}
	// Binary content is described, never printed: where structuredContent
	// repeats it (server-filesystem's read_media_file does), too.
	hint, binaries, n := "", map[string]string{}, 0
	for _, c := range content {
		if binaryData(c) != "" {
			n++
		}
	}
	switch n {
	case 0:
	case 1:
		hint = "; use --out FILE to save it"
	default:
		hint = "; use --out DIR/ to save each"
	}
	sawText := false
	for _, c := range content {
		if c.str("type") == "text" {
			sawText = true
		}
		line := t.describeContent(c, hint)
		if data := binaryData(c); data != "" {
			binaries[data] = line
		}
		t.block(line)
	}
	if !sawText && structured != nil {
		t.json(withoutStrings(structured, binaries))
	}
	return true
}

// binaryData is the base64 text of binary content (an image, audio, an
// embedded blob); "" for any other.
func binaryData(c *value) string {
	switch c.str("type") {
	case "image", "audio":
		return c.str("data")
	case "resource":
		return c.get("resource").str("blob")
	}
	return ""
}

// withoutStrings is v with every string that repl names replaced by its
// value there: a copy in which what is unchanged keeps its text, or v
// itself when nothing is replaced.
func withoutStrings(v *value, repl map[string]string) *value {
	if len(repl) == 0 {
		return v
	}
	node, changed := replaceStrings(v.node, v.raw, repl)
	if !changed {
		return v
	}
	return &value{node: node, raw: ojson.Encode(node)}
}

// replaceStrings walks an ojson tree (text: the node's JSON text, nil if
// unknown); a sub-tree with nothing replaced stays its text, exactly.
func replaceStrings(node any, text []byte, repl map[string]string) (any, bool) {
	keep := func() any {
		if text == nil {
			return node
		}
		return json.RawMessage(text)
	}
	switch n := node.(type) {
	case string:
		if r, ok := repl[n]; ok {
			return r, true
		}
	case *ojson.Object:
		out, changed := ojson.NewObject(), false
		for _, k := range n.Keys() {
			child, c := replaceStrings(n.Get(k), n.Text(k), repl)
			out.Set(k, child)
			changed = changed || c
		}
		if changed {
			return out, true
		}
	case *ojson.Array:
		out, changed := ojson.NewArray(), false
		for i, it := range n.Items() {
			child, c := replaceStrings(it, n.Text(i), repl)
			out.Append(child)
			changed = changed || c
		}
		if changed {
			return out, true
		}
	}
	return keep(), false
}

// describeContent renders one content block: text as itself, binary and
// linked content as a one-line description, never as bytes; hint ends
// the description of binary content.
func (t *textWriter) describeContent(c *value, hint string) string {
	typ := c.str("type")
	switch typ {
	case "text":
		return c.str("text")
	case "image", "audio":
		return "[" + typ + ": " + joinNonEmpty(", ", t.name(c.str("mimeType")), humanSize(base64Size(c.str("data")))) + hint + "]"
	case "resource_link":
		s := "[resource link: "
		if name := c.str("name"); name != "" {
			s += t.name(name) + " "
		}
		s += "<" + t.name(c.str("uri")) + ">"
		if mime := c.str("mimeType"); mime != "" {
			s += " (" + t.name(mime) + ")"
		}
		return s + "]"
	case "resource":
		r := c.get("resource")
		if text := r.get("text"); text.is(kindString) {
			return text.text()
		}
		return t.blobLine(r, hint)
	case "":
		return "[content without a type]"
	}
	return "[" + t.name(typ) + " content]"
}

// blobLine describes binary resource contents by size; printing base64 (or
// the decoded bytes) to a terminal helps nobody.
func (t *textWriter) blobLine(r *value, hint string) string {
	size := fmt.Sprintf("%d bytes", base64Size(r.str("blob")))
	return "[blob: " + joinNonEmpty(", ", t.name(r.str("uri")), t.name(r.str("mimeType")), size) + hint + "]"
}

func textResourceRead(t *textWriter, v *value) bool {
	contents, ok := v.array("contents")
	if !ok {
		return false
	}
	for _, c := range contents {
		switch {
		case c.get("text").is(kindString):
			t.block(c.str("text"))
		case c.get("blob").is(kindString):
			t.linef("%s", t.blobLine(c, "; use --out FILE to save it"))
		default:
			t.json(c)
		}
	}
	return true
}

func textPromptGet(t *textWriter, v *value) bool {
	messages, ok := v.array("messages")
	if !ok {
		return false
	}
	if d := v.str("description"); d != "" {
		t.block(d)
		t.b.WriteByte('\n')
	}
	for _, m := range messages {
		var parts []string
		content := m.get("content")
		if content.is(kindArray) {
			for _, c := range content.items() {
				parts = append(parts, t.describeContent(c, ""))
			}
		} else if content != nil {
			parts = append(parts, t.describeContent(content, ""))
		}
		t.b.WriteString(t.bold(t.name(m.str("role")) + ":"))
		t.b.WriteByte(' ')
		t.block(strings.Join(parts, "\n"))
	}
	return true
}

// textNamedList lists tools or prompts as "name — summary" with the
// arguments underneath, required ones marked "*".
func textNamedList(t *textWriter, kind Kind, v *value) bool {
	field := "tools"
	if kind == KindPromptsList {
		field = "prompts"
	}
	items, ok := v.array(field)
	if !ok {
		return false
	}
	for _, it := range items {
		line := t.bold(t.name(it.str("name")))
		if d := firstLine(it.str("description")); d != "" {
			line += " — " + t.one(d)
		}
		t.linef("%s", line)
		args := promptArgs(it)
		if kind == KindToolsList {
			args = toolArgs(it.get("inputSchema"))
		}
		if len(args) > 0 {
			t.linef("    args: %s", t.name(strings.Join(args, ", ")))
		}
	}
	t.cursor(v)
	return true
}

// toolArgs names a tool's top-level parameters, required ones marked "*".
func toolArgs(inputSchema *value) []string {
	props, required := schemaProperties(schemaOf(inputSchema))
	var names []string
	for _, p := range props {
		n := p.Name
		if required[n] {
			n += "*"
		}
		names = append(names, n)
	}
	return names
}

func textResourceList(t *textWriter, kind Kind, v *value) bool {
	field, uriKey := "resources", "uri"
	if kind == KindTemplatesList {
		field, uriKey = "resourceTemplates", "uriTemplate"
	}
	items, ok := v.array(field)
	if !ok {
		return false
	}
	for _, it := range items {
		var line string
		if name := it.str("name"); name != "" {
			line = t.bold(t.name(name)) + " "
		}
		line += "<" + t.name(it.str(uriKey)) + ">"
		if mime := it.str("mimeType"); mime != "" {
			line += " (" + t.name(mime) + ")"
		}
		if d := firstLine(it.str("description")); d != "" {
			line += " — " + t.one(d)
		}
		t.linef("%s", line)
	}
	t.cursor(v)
	return true
}

// cursor tells a person that the list has more pages.
func (t *textWriter) cursor(v *value) {
	if c := v.str("nextCursor"); c != "" {
		t.linef("(more results; next cursor: %s)", t.name(c))
	}
}

func textDiscover(t *textWriter, v *value) bool {
	if !v.is(kindObject) {
		return false
	}
	info := v.get("_meta").get("io.modelcontextprotocol/serverInfo")
	if info == nil {
		info = v.get("serverInfo") // legacy initialize result
	}
	if info != nil {
		s := joinNonEmpty(" ", t.name(info.str("name")), t.name(info.str("version")))
		if title := info.str("title"); title != "" {
			s += " (" + t.one(title) + ")"
		}
		t.linef("%s %s", t.bold("Server:"), s)
	}
	var versions []string
	if vs, ok := v.array("supportedVersions"); ok {
		for _, x := range vs {
			versions = append(versions, t.name(x.display()))
		}
	} else if pv := v.str("protocolVersion"); pv != "" {
		versions = append(versions, t.name(pv))
	}
	if len(versions) > 0 {
		t.linef("%s %s", t.bold("Protocol versions:"), strings.Join(versions, ", "))
	}
	if caps := v.get("capabilities"); caps.is(kindObject) {
		var names []string
		for _, k := range caps.keys() {
			names = append(names, t.name(k)+t.capabilityFlags(caps.get(k)))
		}
		t.linef("%s %s", t.bold("Capabilities:"), strings.Join(names, ", "))
	}
	if ins := v.str("instructions"); ins != "" {
		t.linef("%s", t.bold("Instructions:"))
		t.block(indent(t.clean(ins), "  "))
	}
	return true
}

// capabilityFlags shows sub-features switched on, e.g. "resources
// (subscribe, listChanged)". Their names are sanitised on a pipe too.
func (t *textWriter) capabilityFlags(c *value) string {
	var on []string
	if c.is(kindObject) {
		for _, k := range c.keys() {
			if c.get(k).is(kindBool) && c.get(k).boolean() {
				if t.tty {
					on = append(on, SanitizeName(k))
				} else {
					on = append(on, SanitizeLine(k))
				}
			}
		}
	}
	if len(on) == 0 {
		return ""
	}
	return " (" + strings.Join(on, ", ") + ")"
}

func textComplete(t *textWriter, v *value) bool {
	values, ok := v.get("completion").array("values")
	if !ok {
		return false
	}
	for _, x := range values {
		t.linef("%s", t.name(x.display()))
	}
	return true
}

// one prepares server text for a one-line slot of free text (a summary, a
// title): sanitised on a terminal, and with line breaks folded everywhere,
// since a newline inside it would forge the next entry of a listing.
func (t *textWriter) one(s string) string {
	if t.tty {
		return SanitizeLine(s)
	}
	return lineBreaks.Replace(s)
}

// name prepares a name, URI or key (what a user may type back): ShowName.
func (t *textWriter) name(s string) string { return ShowName(s, t.tty) }

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

func joinNonEmpty(sep string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

// base64Size is the decoded length of base64 text, computed without decoding
// (blobs can be large) and tolerant of missing padding and line breaks.
func base64Size(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '=', ' ', '\n', '\r', '\t':
		default:
			n++
		}
	}
	return n * 6 / 8
}

func humanSize(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, unit := range []string{"KiB", "MiB", "GiB"} {
		f /= 1024
		if f < 1024 || unit == "GiB" {
			return fmt.Sprintf("%.1f %s", f, unit)
		}
	}
	return ""
}

func textCacheList(t *textWriter, v *value) bool {
	entries, ok := v.array("entries")
	if !ok {
		return false
	}
	if len(entries) == 0 {
		t.linef("the cache is empty")
	}
	for _, e := range entries {
		state := "stale"
		if e.isTrue("fresh") {
			state = "fresh"
		}
		t.linef("%s %s  %s  (age %s, ttl %s, %s)", t.bold(t.name(e.str("method"))), t.name(e.get("params").display()),
			t.name(e.str("server")), e.str("age"), e.str("ttl"), state)
	}
	return true
}

func textConfigList(t *textWriter, v *value) bool {
	servers, ok := v.array("servers")
	if !ok {
		return false
	}
	if len(servers) == 0 {
		t.linef("no servers configured; add one with 'mcpctl config add NAME --url URL' (or --stdio 'CMD ARGS…')")
	}
	// At a terminal the name, kind and target are padded to the widest of
	// each (in cells, as DisplayWidth counts them) so the columns line up;
	// nothing is cut, as text never cuts. A pipe keeps two spaces between
	// fields, which scripts already split on.
	rows := make([][3]string, len(servers))
	var widths [3]int
	for i, s := range servers {
		rows[i] = [3]string{t.name(s.str("name")), t.name(s.str("kind")), t.one(s.str("target"))}
		for j, c := range rows[i] {
			widths[j] = max(widths[j], DisplayWidth(c))
		}
	}
	for i, s := range servers {
		r := rows[i]
		var line strings.Builder
		for j, c := range r {
			cell := c
			if t.tty {
				cell = pad(c, widths[j])
			}
			if j == 0 {
				cell = t.bold(c) + cell[len(c):] // the padding stays plain
			}
			line.WriteString(cell + "  ")
		}
		line.WriteString("(" + t.one(s.str("source")) + ")")
		if by := s.str("shadowedBy"); by != "" {
			line.WriteString("  shadowed by " + t.one(by))
		}
		if p := s.str("problem"); p != "" {
			line.WriteString("  unusable: " + t.one(p))
		}
		if trust := trustNote(s.str("trust")); trust != "" {
			line.WriteString("  " + trust)
			if s.str("trust") == "untrusted" || s.str("trust") == "changed" {
				line.WriteString(": not used until 'mcpctl config trust " + t.one(s.str("file")) + "'")
			}
		}
		t.linef("%s", line.String())
	}
	return true
}

// trustNote says what config list's trust field means for a project
// file's entry ("" when trusted, or no project file's).
func trustNote(trust string) string {
	switch trust {
	case "untrusted":
		return "untrusted"
	case "changed":
		return "changed since trusted"
	case "trust-project":
		return "trusted by --trust-project"
	}
	return ""
}

func textTasksList(t *textWriter, v *value) bool {
	tasks, ok := v.array("tasks")
	if !ok {
		return false
	}
	if len(tasks) == 0 {
		t.linef("no tasks started from this machine")
	}
	for _, task := range tasks {
		line := fmt.Sprintf("%s  %s  %s  (started %s)", t.bold(t.name(task.str("taskId"))), t.name(task.str("status")),
			t.name(task.str("server")), task.str("createdAt"))
		if m := task.str("statusMessage"); m != "" {
			line += " — " + t.one(m)
		}
		t.linef("%s", line)
	}
	return true
}
