package fakemcp

import "strings"

// Issue 24, item 5: skills whose file names cannot be written as given,
// served by mode "skills" to skills/get only (they are not listed, so the
// listing stays as it was). Their digests and sizes are right: only
// their names are hostile.
//
//	clash/file-first     "tools" is a file, then a folder (tools/run.sh)
//	clash/folder-first   the same, the folder first
//	toolong/name         a file name of 256 bytes, over NAME_MAX
//	toolong/path         a path of more than 4096 bytes, over PATH_MAX
//	names/bidi           a right-to-left override in a file name
//	names/zerowidth      a zero-width space in a folder name
//	names/c1             a C1 control (NEL) in a file name
func init() {
	hostile := func(path string, extra ...string) fakeSkill {
		name := path[strings.LastIndex(path, "/")+1:]
		k := fakeSkill{path: path, fm: skillFM(name, "Names that cannot be written"), files: []string{"SKILL.md"},
			declared: map[string]string{"SKILL.md": skillMD(name, "Names that cannot be written")}}
		for _, rel := range extra {
			k.files = append(k.files, rel)
			k.declared[rel] = "content of " + rel + "\n"
		}
		return k
	}
	deep := strings.Repeat(strings.Repeat("d", 200)+"/", 21) + "f.md"
	fakeSkills = append(fakeSkills,
		hostile("clash/file-first", "tools", "tools/run.sh"),
		hostile("clash/folder-first", "tools/run.sh", "tools"),
		hostile("toolong/name", "references/"+strings.Repeat("n", 256)),
		hostile("toolong/path", deep),
		hostile("names/bidi", "references/GUIDE\u202edm.txt"),
		hostile("names/zerowidth", "refer\u200bences/GUIDE.md"),
		hostile("names/c1", "references/\u0085GUIDE.md"),
	)
}
