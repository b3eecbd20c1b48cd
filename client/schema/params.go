package schema

// Param is one top-level property as shell completion offers it.
type Param struct {
	Name     string
	Spec     string // operator and placeholder, as in Usage: "=STRING", "=metric|imperial", ":=JSON"
	Required bool
	// Values are what the property accepts, as typed after "=": enum or
	// const members that are scalars, or true and false for a boolean.
	// Empty when the schema leaves the value open.
	Values      []string
	Description string
}

// Params lists the top-level properties in schema order, as Usage shows
// them, with the values a completion can offer.
func (s *Schema) Params() []Param {
	var out []Param
	for _, e := range s.propertyList(s.nodes[""]) {
		p := Param{Name: e.name, Spec: s.valueSpec(e.n), Required: e.required}
		if e.n != nil {
			if d, ok := e.n.str("description"); ok {
				p.Description = d
			}
			p.Values = s.values(e.n)
		}
		out = append(out, p)
	}
	return out
}

func (s *Schema) values(n *node) []string {
	sh := s.shapeOf(n)
	var members []any
	switch {
	case sh.hasConst:
		members = []any{sh.constV}
	case sh.hasEnum:
		members = sh.enum
	default:
		if types := sh.nonNullTypes(); len(types) == 1 && types[0] == "boolean" {
			return []string{"true", "false"}
		}
		return nil
	}
	var out []string
	for _, m := range members {
		if t, ok := scalarText(m); ok {
			out = append(out, t)
		}
	}
	return dedupe(out)
}
