package output

import (
	"strconv"
)

// skillNames labels the entries of a skills/list result for a person:
// the frontmatter name, or, where two entries share it, what path says of
// its URI (Options.SkillPath: the skill path, the URI without its scheme
// and /SKILL.md), which tells them apart. No entry is ever left out.
func skillNames(items []*value, path func(uri string) string) []string {
	if path == nil {
		path = func(uri string) string { return uri }
	}
	count := map[string]int{}
	for _, it := range items {
		count[it.get("frontmatter").str("name")]++
	}
	names := make([]string, len(items))
	for i, it := range items {
		name := it.get("frontmatter").str("name")
		if count[name] > 1 || name == "" {
			name = path(it.str("uri"))
		}
		names[i] = name
	}
	return names
}

// skillFiles says how many files an entry lists, or that it is dynamic.
func skillFiles(it *value) string {
	r := it.get("resources")
	if r.is(kindArray) {
		return strconv.Itoa(len(r.items()))
	}
	return r.text()
}

func skillsTable(items []*value, path func(string) string) *table {
	names := skillNames(items, path)
	t := &table{headers: []string{"NAME", "FILES", "URI", "DESCRIPTION"}}
	for i, it := range items {
		t.rows = append(t.rows, []string{names[i], skillFiles(it), it.str("uri"), firstLine(it.get("frontmatter").str("description"))})
	}
	return t
}

func textSkillsList(t *textWriter, v *value) bool {
	items, ok := v.array("skills")
	if !ok {
		return false
	}
	names := skillNames(items, t.opts.SkillPath)
	for i, it := range items {
		line := t.bold(t.name(names[i])) + " <" + t.name(it.str("uri")) + ">"
		switch n := skillFiles(it); n {
		case "":
		case "dynamic":
			line += " (dynamic)"
		default:
			line += " (" + t.name(n) + " files)"
		}
		if d := firstLine(it.get("frontmatter").str("description")); d != "" {
			line += " — " + t.one(d)
		}
		t.linef("%s", line)
	}
	t.cursor(v)
	return true
}
