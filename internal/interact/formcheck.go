package interact

// The requested schema of a form elicitation (client/elicitation.mdx) is a
// flat object of primitive fields: strings (with formats email, uri, date,
// date-time), numbers and integers (with bounds), booleans, single-select
// enums (enum, or oneOf of const/title) and multi-select arrays of enum
// values. This file decodes it once, in order, and checks and types values
// against it, for the terminal prompts and for answers given as flags or
// files alike.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/client/schema"
)

type formOption struct {
	value json.RawMessage
	label string
}

type formField struct {
	name, typ, title, desc, format, pattern string
	def                                     json.RawMessage
	options                                 []formOption // single- or multi-select choices
	multi                                   bool
	min, max                                *json.Number
	minLen, maxLen, minItems, maxItems      *int
	required                                bool
}

func (f *formField) label() string {
	if f.title != "" {
		return f.title
	}
	return f.name
}

type formSchema struct{ fields []*formField }

func (s *formSchema) field(name string) *formField {
	for _, f := range s.fields {
		if f.name == name {
			return f
		}
	}
	return nil
}

func (s *formSchema) names() []string {
	var n []string
	for _, f := range s.fields {
		n = append(n, f.name)
	}
	return n
}

// parseRequestedSchema decodes a requestedSchema, keeping the order of its
// properties. Anything that is not a flat form is an error, never a panic.
// The schema is read by client/schema (Read), the one place that knows
// where a schema keeps its subschemas.
func parseRequestedSchema(raw json.RawMessage) (*formSchema, error) {
	doc, err := schema.Read(raw)
	if err != nil || !doc.Root().IsObject() {
		return nil, fmt.Errorf("requestedSchema is not a JSON object")
	}
	root := doc.Root()
	var required []string
	if r, ok := root.Keyword("required"); ok {
		if json.Unmarshal(r, &required) != nil {
			return nil, fmt.Errorf("requestedSchema.required is not a list of names")
		}
	}
	s := &formSchema{}
	props, ok := root.Properties()
	if !ok {
		return nil, fmt.Errorf("requestedSchema.properties is not an object")
	}
	for _, p := range props {
		f, err := parseFormField(p.Name, p.Schema)
		if err != nil {
			return nil, err
		}
		s.fields = append(s.fields, f)
	}
	for _, r := range required {
		f := s.field(r)
		if f == nil {
			return nil, fmt.Errorf("requestedSchema requires %q, which it does not define", r)
		}
		f.required = true
	}
	return s, nil
}

// parseFormField reads one field: its own keywords (a form's field is
// flat: it declares its type itself, and its choices in enum, oneOf or
// anyOf, or in those of its items).
func parseFormField(name string, n schema.Node) (*formField, error) {
	var p struct {
		Type        string            `json:"type"`
		Title       string            `json:"title"`
		Description string            `json:"description"`
		Format      string            `json:"format"`
		Pattern     string            `json:"pattern"`
		Default     json.RawMessage   `json:"default"`
		Enum        []json.RawMessage `json:"enum"`
		EnumNames   []string          `json:"enumNames"`
		Minimum     *json.Number      `json:"minimum"`
		Maximum     *json.Number      `json:"maximum"`
		MinLength   *int              `json:"minLength"`
		MaxLength   *int              `json:"maxLength"`
		MinItems    *int              `json:"minItems"`
		MaxItems    *int              `json:"maxItems"`
	}
	if !n.IsObject() || json.Unmarshal(n.JSON(), &p) != nil {
		return nil, fmt.Errorf("requestedSchema property %q is not a schema object", name)
	}
	f := &formField{name: name, typ: p.Type, title: p.Title, desc: p.Description, format: p.Format, pattern: p.Pattern,
		def: p.Default, min: p.Minimum, max: p.Maximum, minLen: p.MinLength, maxLen: p.MaxLength, minItems: p.MinItems, maxItems: p.MaxItems}
	switch oneOf, anyOf := n.OneOf(), n.AnyOf(); {
	case len(p.Enum) > 0:
		f.options = enumOptions(p.Enum, p.EnumNames)
	case len(oneOf) > 0:
		f.options = constOptions(oneOf)
	case len(anyOf) > 0 && p.Type != "array":
		f.options = constOptions(anyOf)
	}
	switch p.Type {
	case "string", "number", "integer", "boolean":
	case "":
		if len(f.options) == 0 {
			return nil, fmt.Errorf("requestedSchema property %q has no type", name)
		}
		f.typ = "string"
	case "array":
		items, ok := n.Items()
		if !ok {
			return nil, fmt.Errorf("requestedSchema property %q is an array without items", name)
		}
		f.multi = true
		var enum []json.RawMessage
		if e, ok := items.Keyword("enum"); ok {
			_ = json.Unmarshal(e, &enum)
		}
		switch anyOf, oneOf := items.AnyOf(), items.OneOf(); {
		case len(enum) > 0:
			f.options = enumOptions(enum, nil)
		case len(anyOf) > 0:
			f.options = constOptions(anyOf)
		case len(oneOf) > 0:
			f.options = constOptions(oneOf)
		default:
			return nil, fmt.Errorf("requestedSchema property %q is an array whose items are not a list of choices", name)
		}
	default:
		return nil, fmt.Errorf("requestedSchema property %q has type %q, which a form cannot hold", name, p.Type)
	}
	if (f.typ == "string" || f.typ == "array") && len(f.options) == 0 && f.multi {
		return nil, fmt.Errorf("requestedSchema property %q has no choices", name)
	}
	return f, nil
}

func enumOptions(values []json.RawMessage, names []string) []formOption {
	var out []formOption
	for i, v := range values {
		label := displayValue(v)
		if i < len(names) && names[i] != "" {
			label = names[i]
		}
		out = append(out, formOption{value: v, label: label})
	}
	return out
}

// constOptions reads the choices of a oneOf or anyOf: each branch's const,
// shown by its title. A branch without a const (or whose title is not
// text) is no choice.
func constOptions(branches []schema.Node) []formOption {
	var out []formOption
	for _, b := range branches {
		c, ok := b.Keyword("const")
		if !ok {
			continue
		}
		var label string
		if t, has := b.Keyword("title"); has && json.Unmarshal(t, &label) != nil {
			continue
		}
		if label == "" {
			label = displayValue(c)
		}
		out = append(out, formOption{value: c, label: label})
	}
	return out
}

// displayValue shows a JSON value as a person would type it.
func displayValue(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// valueFromString converts what --answer gave (or a person typed) into the
// field's JSON value, checked. Text is typed by the field's type as tools
// call types key=value items (schema.TypeText): numbers keep their text
// exactly, and a boolean is true or false.
func (f *formField) valueFromString(s string) (json.RawMessage, error) {
	if f.multi {
		var items []json.RawMessage
		for _, part := range strings.Split(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			v, err := f.choose(part)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
		}
		v := append(json.RawMessage("["), bytes.Join(rawsToBytes(items), []byte(","))...)
		v = append(v, ']')
		return v, f.check(v)
	}
	if len(f.options) > 0 {
		return f.choose(s)
	}
	v, ok := schema.TypeText(f.typ, s)
	if !ok {
		return nil, fmt.Errorf("%q is not %s", s, map[string]string{
			"integer": "a whole number", "number": "a number", "boolean": "true or false"}[f.typ])
	}
	return v, f.check(v)
}

func rawsToBytes(rs []json.RawMessage) [][]byte {
	out := make([][]byte, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}

// choose picks an option by its number in the list, its value or its label.
func (f *formField) choose(s string) (json.RawMessage, error) {
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(f.options) {
		if !(len(f.options[0].value) > 0 && f.options[0].value[0] != '"') { // numeric values are chosen by value
			return f.options[n-1].value, nil
		}
	}
	for _, o := range f.options {
		if displayValue(o.value) == s || strings.EqualFold(o.label, s) {
			return o.value, nil
		}
	}
	return nil, fmt.Errorf("%q is not one of %s", s, f.choices())
}

func (f *formField) choices() string {
	var c []string
	for _, o := range f.options {
		c = append(c, strconv.Quote(displayValue(o.value)))
	}
	return strings.Join(c, ", ")
}

// check validates a JSON value for the field.
func (f *formField) check(v json.RawMessage) error {
	if f.multi {
		var items []json.RawMessage
		if json.Unmarshal(v, &items) != nil {
			return fmt.Errorf("%s: want a list of choices", f.name)
		}
		for _, it := range items {
			if !f.isOption(it) {
				return fmt.Errorf("%s: %s is not one of %s", f.name, displayValue(it), f.choices())
			}
		}
		if f.minItems != nil && len(items) < *f.minItems {
			return fmt.Errorf("%s: choose at least %d", f.name, *f.minItems)
		}
		if f.maxItems != nil && len(items) > *f.maxItems {
			return fmt.Errorf("%s: choose at most %d", f.name, *f.maxItems)
		}
		return nil
	}
	if len(f.options) > 0 {
		if !f.isOption(v) {
			return fmt.Errorf("%s: %s is not one of %s", f.name, string(v), f.choices())
		}
		return nil
	}
	switch f.typ {
	case "integer", "number":
		var n json.Number
		if json.Unmarshal(v, &n) != nil {
			return fmt.Errorf("%s: want a %s, got %s", f.name, f.typ, string(v))
		}
		if f.typ == "integer" && !schema.IsInteger(n.String()) {
			return fmt.Errorf("%s: want an integer, got %s", f.name, string(v))
		}
		if c, ok := compareBound(n, f.min); ok && c < 0 {
			return fmt.Errorf("%s: must be at least %s", f.name, boundText(*f.min))
		}
		if c, ok := compareBound(n, f.max); ok && c > 0 {
			return fmt.Errorf("%s: must be at most %s", f.name, boundText(*f.max))
		}
	case "boolean":
		if s := string(v); s != "true" && s != "false" {
			return fmt.Errorf("%s: want true or false, got %s", f.name, s)
		}
	case "string":
		var s string
		if json.Unmarshal(v, &s) != nil {
			return fmt.Errorf("%s: want a string, got %s", f.name, string(v))
		}
		return f.checkString(s)
	}
	return nil
}

// compareBound compares n with a bound exactly (schema.CompareNumbers); ok
// is false without a bound.
func compareBound(n json.Number, bound *json.Number) (int, bool) {
	if bound == nil {
		return 0, false
	}
	return schema.CompareNumbers(n.String(), bound.String())
}

// boundText shows a bound as people write it: 3.0 as 3; anything else as
// the schema wrote it, so always exactly. (Done on the text: a bound like
// 1e999999999 must cost nothing to show.)
func boundText(n json.Number) string {
	s := n.String()
	if i := strings.IndexByte(s, '.'); i >= 0 && !strings.ContainsAny(s, "eE") && strings.Trim(s[i+1:], "0") == "" {
		return s[:i]
	}
	return s
}

func (f *formField) isOption(v json.RawMessage) bool {
	for _, o := range f.options {
		if bytes.Equal(bytes.TrimSpace(o.value), bytes.TrimSpace(v)) {
			return true
		}
	}
	return false
}

func (f *formField) checkString(s string) error {
	n := len([]rune(s))
	if f.minLen != nil && n < *f.minLen {
		return fmt.Errorf("%s: at least %d characters", f.name, *f.minLen)
	}
	if f.maxLen != nil && n > *f.maxLen {
		return fmt.Errorf("%s: at most %d characters", f.name, *f.maxLen)
	}
	switch f.format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return fmt.Errorf("%s: %q is not an email address", f.name, s)
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return fmt.Errorf("%s: %q is not a URI (e.g. https://example.com)", f.name, s)
		}
	case "date":
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return fmt.Errorf("%s: %q is not a date (YYYY-MM-DD)", f.name, s)
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return fmt.Errorf("%s: %q is not a date-time (e.g. 2026-07-28T09:30:00Z)", f.name, s)
		}
	}
	if f.pattern != "" {
		if re, err := regexp.Compile(f.pattern); err == nil && !re.MatchString(s) {
			return fmt.Errorf("%s: %q does not match the pattern %s", f.name, s, f.pattern)
		}
	}
	return nil
}

// elicitDefaults is the content made of every field's default, for
// --elicit accept-defaults.
func elicitDefaults(requestedSchema json.RawMessage) (json.RawMessage, error) {
	s, err := parseRequestedSchema(requestedSchema)
	if err != nil {
		return nil, err
	}
	content := ojson.Members{}
	var missing []string
	for _, f := range s.fields {
		if len(f.def) > 0 {
			content.Set(f.name, f.def)
		} else if f.required {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("required fields without a default: %s", strings.Join(missing, ", "))
	}
	return content.JSON(), nil
}

// typeElicitValue types a --answer value for field by the requested schema.
func typeElicitValue(requestedSchema json.RawMessage, field, value string) (json.RawMessage, error) {
	s, err := parseRequestedSchema(requestedSchema)
	if err != nil {
		return nil, err
	}
	f := s.field(field)
	if f == nil {
		return nil, fmt.Errorf("the server asks for no field %q (it asks for %s)", field, strings.Join(s.names(), ", "))
	}
	return f.valueFromString(value)
}

// checkElicitResult validates an ElicitResult against the requested schema.
func checkElicitResult(requestedSchema, result json.RawMessage) error {
	var r struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return fmt.Errorf("an answer must be an object with an action")
	}
	switch r.Action {
	case "decline", "cancel":
		return nil
	case "accept":
	default:
		return fmt.Errorf("action %q is not accept, decline or cancel", r.Action)
	}
	s, err := parseRequestedSchema(requestedSchema)
	if err != nil {
		return err
	}
	content := ojson.Members{}
	if len(r.Content) > 0 && string(r.Content) != "null" {
		m, err := ojson.SplitObject(r.Content)
		if err != nil {
			return fmt.Errorf("content must be an object")
		}
		content = m.Unique() // of duplicate keys the last counts, as in --answers
	}
	for _, k := range content.Keys() {
		f := s.field(k)
		if f == nil {
			return fmt.Errorf("the server asks for no field %q (it asks for %s)", k, strings.Join(s.names(), ", "))
		}
		if err := f.check(content.Get(k)); err != nil {
			return err
		}
	}
	for _, f := range s.fields {
		if f.required && !content.Has(f.name) {
			return fmt.Errorf("the required field %q is missing", f.name)
		}
	}
	return nil
}
