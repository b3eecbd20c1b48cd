package fakemcp

// Mode "schemas" (issue 14, item 1: mcpctl's own JSON Schema validator):
// tools whose inputSchemas hold what a local validator can get wrong. The
// tools echo their arguments, so a test sees exactly what was sent.
//
//   - legacy03: a dialect mcpctl does not support (draft-03): sent as
//     given, with a --trace line;
//   - lookahead: an ECMA-262 pattern Go's regexp engine cannot run: not
//     enforced (never a false refusal), the rest of the schema still is;
//   - exact: integers past 2^53 in bounds, const and multipleOf, which a
//     validator working in float64 gets wrong;
//   - draft07: a draft-07 schema with definitions and format, the most
//     common explicit $schema in the wild (format is an annotation).
const schemaTools = `{"tools":[` +
	`{"name":"legacy03","inputSchema":{"$schema":"http://json-schema.org/draft-03/schema#","type":"object","properties":{"n":{"type":"integer","required":true}}}},` +
	`{"name":"lookahead","inputSchema":{"type":"object","properties":{"user":{"type":"string","pattern":"^(?!admin)"},"n":{"type":"integer"}}}},` +
	`{"name":"exact","inputSchema":{"type":"object","properties":{"id":{"type":"integer","maximum":9007199254740992},"k":{"const":9007199254740993},"m":{"type":"integer","multipleOf":3}}}},` +
	`{"name":"draft07","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"mail":{"type":"string","format":"email"}},"properties":{"to":{"$ref":"#/definitions/mail"},"n":{"type":"integer","minimum":1}},"required":["to"]}}` +
	`]}`

func (s *server) schemas(req request) reply {
	if req.Method == "tools/list" {
		return reply{messages: []string{result(req.ID, schemaTools)}, exit: -1}
	}
	return s.echo(req)
}
