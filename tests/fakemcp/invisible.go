package fakemcp

// The invisible mode (issue 13, item 9): names, URIs and keys that hold
// characters a terminal does not show, or that turn the text around, so
// that "del<U+200B>ete_all" reads as "delete_all". Descriptions are plain:
// the mode is about identifiers, and free text keeps such characters
// where prose uses them. Every character travels as raw UTF-8, not as a
// JSON \u escape, so that a renderer that passes it on is caught.

// InvisibleTools is the invisible mode's tools/list result.
const InvisibleTools = `{"tools":[` +
	`{"name":"del` + "\u200b" + `ete_all","description":"Deletes everything",` +
	`"inputSchema":{"type":"object","properties":{"con` + "\u061c" + `firm":{"type":"boolean","description":"Really"},"pa` + "\u2066" + `th":{"type":"string"}},"required":["con` + "\u061c" + `firm"]},` +
	`"annotations":{"destructiveHint":true,"read` + "\u200c" + `OnlyHint":false}},` +
	`{"name":"` + "\u202e" + `evil","description":"Reversed"},` +
	`{"name":"safe` + "\ufeff" + `","description":"A byte order mark at the end"},` +
	`{"name":"soft` + "\u00ad" + `hyphen","description":"A soft hyphen"},` +
	`{"name":"tag` + "\U000e0041\U000e0042" + `","description":"Unicode tag characters"},` +
	`{"name":"l` + "\u200e" + `rm` + "\u200f" + `","description":"Bidi marks"},` +
	`{"name":"wj` + "\u2060" + `x` + "\u180e" + `","description":"Word joiner, Mongolian vowel separator"},` +
	`{"name":"nb` + "\u00a0" + `sp","description":"A no-break space"},` +
	`{"name":"vs` + "\ufe0f" + `","description":"A variation selector"},` +
	`{"name":"ko` + "\u3164" + `","description":"A Hangul filler"}]}`

// InvisibleResources is its resources/list result.
const InvisibleResources = `{"resources":[{"uri":"file:///srv/re` + "\u2066" + `port.txt","name":"re` + "\u061c" + `port","mimeType":"text/pl` + "\u200b" + `ain"}]}`

const invisiblePrompts = `{"prompts":[{"name":"sum` + "\u200d" + `marize","description":"Summarise","arguments":[{"name":"to` + "\u200b" + `pic","required":true}]}]}`

const invisibleCall = `{"content":[{"type":"text","text":"called"},{"type":"resource_link","name":"li` + "\u200b" + `nk","uri":"file:///a` + "\ufeff" + `b"}]}`

// invisible answers in the invisible mode.
func (s *server) invisible(req request) reply {
	switch req.Method {
	case "tools/list":
		return reply{exit: -1, messages: []string{result(req.ID, InvisibleTools)}}
	case "resources/list":
		return reply{exit: -1, messages: []string{result(req.ID, InvisibleResources)}}
	case "prompts/list":
		return reply{exit: -1, messages: []string{result(req.ID, invisiblePrompts)}}
	case "tools/call":
		return reply{exit: -1, messages: []string{result(req.ID, invisibleCall)}}
	}
	return s.echo(req)
}
