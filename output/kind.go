package output

// Kind says which MCP result a raw message is, so that the table and text
// renderers know its shape. JSON, YAML and jq ignore it.
type Kind string

const (
	KindGeneric       Kind = "generic"
	KindDiscover      Kind = "discover" // server/discover, or a legacy initialize result
	KindToolsList     Kind = "tools/list"
	KindToolCall      Kind = "tools/call"
	KindToolDescribe  Kind = "tools/describe" // raw is one Tool object taken from tools/list
	KindResourcesList Kind = "resources/list"
	KindTemplatesList Kind = "resources/templates/list"
	KindResourceRead  Kind = "resources/read"
	KindPromptsList   Kind = "prompts/list"
	KindSkillsList    Kind = "skills/list"
	KindPromptGet     Kind = "prompts/get"
	KindComplete      Kind = "completion/complete"
	// KindCacheList is mcpctl's own listing of its result cache:
	// {"entries":[{"method","params","server","age","ttlMs","fresh",…}]}.
	KindCacheList Kind = "cache/list"
	// KindTasksList is mcpctl's record of the tasks it started:
	// {"tasks":[{"taskId","server","status","createdAt",…}]}.
	KindTasksList Kind = "tasks/list"
	// KindConfigList is mcpctl's listing of the servers it can name:
	// {"servers":[{"name","kind","target","source","format","file",…}]}.
	KindConfigList Kind = "config/list"
)
