package interact

// Answering a server's input requests (elicitation/create, roots/list,
// sampling/createMessage) for input_required rounds and task input phases.
// Answers come, in this order, from --answers (an InputResponses object),
// --answer KEY.field=value items, --elicit, and finally a person at the
// terminal. Nothing prompts when stdin is not a terminal: without an answer
// the call ends with exit 6 and a continuation document on stdout.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/client/schema"
	"github.com/mcpctl/mcpctl/internal/exitcode"
	"github.com/mcpctl/mcpctl/output"
)

// Config is what the flags say about answering.
type Config struct {
	Answers      ojson.Members            // --answers: key → result, as written
	FieldAnswers map[string][]FieldAnswer // --answer KEY.field=value
	FieldOrder   []string                 // the KEYs of --answer, first use first
	Elicit       string                   // --elicit accept-defaults|decline|cancel, or ""
	Roots        []Root                   // --root
	SamplingCmd  []string                 // --sampling-cmd, split into its words
	OpenURLs     bool                     // --open-urls
	Interactive  bool                     // stdin and stderr are terminals: a person may be asked
}

// FieldAnswer is one --answer KEY.FIELD=VALUE, under its KEY.
type FieldAnswer struct{ Field, Value string }

// Root is one of the client's roots (roots/list).
type Root struct{ URI, Name string }

// Capabilities is the clientCapabilities object this invocation can honour.
// Elicitation is always declared: a person at the terminal, --answer,
// --answers or --elicit answer it now, and otherwise the call ends with a
// continuation document that `mcpctl resume` answers later. Roots and
// sampling need their flags; the tasks extension is on unless --no-tasks.
func (ic *Config) Capabilities(tasks bool) json.RawMessage {
	return clientCapabilities(len(ic.Roots) > 0, len(ic.SamplingCmd) > 0, tasks)
}

func clientCapabilities(roots, sampling, tasks bool) json.RawMessage {
	caps := ojson.Members{}
	caps.Set("elicitation", json.RawMessage(`{"form":{},"url":{}}`))
	if roots {
		caps.Set("roots", json.RawMessage(`{}`))
	}
	if sampling {
		caps.Set("sampling", json.RawMessage(`{}`))
	}
	if tasks {
		caps.Set("extensions", json.RawMessage(`{"`+client.TasksExtension+`":{}}`))
	}
	return caps.JSON()
}

// CapabilityDigests are the cache key digests (client.CapabilitiesDigest)
// of every clientCapabilities object mcpctl may declare, the default
// first (tasks, no roots, no sampling): shell completion, which does not
// know which flags a config file adds, takes a list from any of them.
func CapabilityDigests() []string {
	var out []string
	for _, tasks := range []bool{true, false} {
		for _, roots := range []bool{false, true} {
			for _, sampling := range []bool{false, true} {
				out = append(out, client.CapabilitiesDigest(clientCapabilities(roots, sampling, tasks)))
			}
		}
	}
	return out
}

// Handler answers a server's input requests: it implements
// client.InputHandler.
type Handler struct {
	cfg    *Config
	ios    *output.IOStreams
	prompt *formPrompter
	used   map[string]bool // answers given from flags/files, once each

	// The command's context (Ctrl-C and SIGTERM end it) and, when
	// --timeout was given, its deadline: a prompt ends at either. A
	// prompt has no timeout of its own, so the default --timeout never
	// ends a person's typing (prompt.go).
	base     context.Context
	deadline time.Time
	timeout  time.Duration
	progress *Progress              // suspended while a prompt is on the screen
	open     func(url string) error // the user's browser

	// perRequest: a batch's handler. Each line answers from a copy of its
	// own (forLine, found in the call's context), so that every line may
	// use each answer once, as a command of its own would; a legacy
	// server's request, which names no call, gets a fresh copy.
	perRequest bool
}

// Command is what a Handler takes from the command it answers for.
type Command struct {
	// Context is the command's: Ctrl-C and SIGTERM end it, and a prompt
	// with it. Nil is context.Background.
	Context context.Context
	// Timeout is an explicit --timeout (0 when none was given): it
	// bounds the command as a whole, counted from now, and a prompt
	// unanswered by then ends it.
	Timeout  time.Duration
	Progress *Progress              // suspended while a prompt is on the screen; may be nil
	Open     func(url string) error // opens a URL in the user's browser (OpenURL)
}

// lineInputKey finds a batch line's input handler in its context.
type lineInputKey struct{}

// forLine is a copy of h for one batch line: the same answers, none used.
func (h *Handler) forLine() *Handler {
	c := *h
	c.used, c.perRequest = map[string]bool{}, false
	return &c
}

// PerLine makes h a batch's handler: each line answers from a copy of its
// own (LineContext), so that every line may use each answer once, as a
// command of its own would.
func (h *Handler) PerLine() { h.perRequest = true }

// LineContext is ctx for one batch line: its calls are answered from a
// copy of h, with the same answers, none used yet.
func (h *Handler) LineContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, lineInputKey{}, h.forLine())
}

// NewHandler is the handler that answers with cfg, and asks a person on
// ios when cfg says one is there.
func NewHandler(cfg *Config, ios *output.IOStreams, cmd Command) *Handler {
	h := &Handler{cfg: cfg, ios: ios, used: map[string]bool{}, base: context.Background(),
		progress: cmd.Progress, open: cmd.Open}
	if cmd.Context != nil {
		h.base = cmd.Context
	}
	if cmd.Timeout > 0 {
		h.timeout, h.deadline = cmd.Timeout, time.Now().Add(cmd.Timeout)
	}
	if cfg.Interactive {
		h.prompt = newFormPrompter(ios.In, ios.ErrOut, ios.ColorEnabled())
	}
	return h
}

// Answer implements client.InputHandler.
func (h *Handler) Answer(ctx context.Context, round client.InputRound) (map[string]json.RawMessage, error) {
	if h.perRequest {
		line, ok := ctx.Value(lineInputKey{}).(*Handler)
		if !ok {
			line = h.forLine()
		}
		return line.Answer(ctx, round)
	}
	out := map[string]json.RawMessage{}
	var unknown []string
	for _, r := range round.Requests {
		switch r.Method {
		case "elicitation/create", "roots/list", "sampling/createMessage":
		default:
			unknown = append(unknown, r.Key+" ("+r.Method+")")
		}
	}
	if len(unknown) > 0 {
		return nil, &client.InputRequiredError{Reason: "mcpctl does not know how to answer " + strings.Join(unknown, ", ")}
	}
	for _, r := range round.Requests {
		if round.Legacy {
			// A legacy server's request has no key of its own: it is
			// answered under the one --answer and --answers use for it.
			r.Key = legacyInputKey(r.Method)
			if r.Method == "elicitation/create" {
				r.Key = h.legacyKey(r)
			}
		}
		a, err := h.answerOne(ctx, r)
		if err != nil {
			return nil, err
		}
		out[r.Key] = a
	}
	return out, nil
}

func (h *Handler) answerOne(ctx context.Context, r client.InputRequest) (json.RawMessage, error) {
	switch r.Method {
	case "roots/list":
		if len(h.cfg.Roots) == 0 {
			return nil, &client.InputRequiredError{Reason: "the server asks for roots (roots/list); pass --root PATH|URI"}
		}
		return rootsResult(h.cfg.Roots), nil
	case "sampling/createMessage":
		if a, ok := h.fromFile(r.Key); ok {
			return a, nil
		}
		if len(h.cfg.SamplingCmd) == 0 {
			return nil, &client.InputRequiredError{Reason: "the server asks for a model completion (sampling/createMessage); pass --sampling-cmd CMD"}
		}
		return runSampling(ctx, h.cfg.SamplingCmd, r.Params)
	}
	return h.elicit(ctx, r)
}

// legacyInputKey is the key a legacy server request is answered under in
// --answer/--answers: legacy requests carry no key of their own.
func legacyInputKey(method string) string {
	switch method {
	case "elicitation/create":
		return "elicitation"
	case "sampling/createMessage":
		return "sampling"
	case "roots/list":
		return "roots"
	}
	return method
}

// legacyKey picks the key a legacy elicitation is answered under: legacy
// servers name none, so the same --answer KEY.FIELD=… and --answers as for
// a modern server still work. The first unused answer whose fields are all
// in the requested schema is taken (flags in the order given, then the
// file's keys in order); else the request is "elicitation".
func (h *Handler) legacyKey(r client.InputRequest) string {
	key := legacyInputKey(r.Method)
	if _, ok := h.cfg.FieldAnswers[key]; ok {
		return key
	}
	if h.cfg.Answers.Has(key) {
		return key
	}
	var p elicitParams
	_ = json.Unmarshal(r.Params, &p)
	asked := map[string]bool{}
	if doc, err := schema.Read(p.RequestedSchema); err == nil {
		props, _ := doc.Root().Properties()
		for _, f := range props {
			asked[f.Name] = true
		}
	}
	if len(asked) == 0 {
		return key
	}
	fits := func(fields []string) bool {
		for _, f := range fields {
			if !asked[f] {
				return false
			}
		}
		return len(fields) > 0
	}
	for _, k := range h.cfg.FieldOrder {
		if h.used["field:"+k] {
			continue
		}
		var fields []string
		for _, fa := range h.cfg.FieldAnswers[k] {
			fields = append(fields, fa.Field)
		}
		if fits(fields) {
			return k
		}
	}
	for _, k := range h.cfg.Answers.Keys() {
		if h.used[k] {
			continue
		}
		var a struct {
			Content map[string]json.RawMessage `json:"content"`
		}
		_ = json.Unmarshal(h.cfg.Answers.Get(k), &a)
		var fields []string
		for f := range a.Content {
			fields = append(fields, f)
		}
		if fits(fields) {
			return k
		}
	}
	return key
}

func (h *Handler) fromFile(key string) (json.RawMessage, bool) {
	a := h.cfg.Answers.Get(key)
	if !h.cfg.Answers.Has(key) || h.used[key] {
		return nil, false
	}
	h.used[key] = true
	return a, true
}

type elicitParams struct {
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             string          `json:"url"`
	ElicitationID   string          `json:"elicitationId"`
}

func (h *Handler) elicit(ctx context.Context, r client.InputRequest) (json.RawMessage, error) {
	var p elicitParams
	if err := json.Unmarshal(r.Params, &p); err != nil {
		return nil, &client.ProtocolError{Msg: fmt.Sprintf("inputRequests[%q]: elicitation params are malformed: %v", r.Key, err)}
	}
	if p.Mode == "url" {
		return h.elicitURL(ctx, r.Key, p)
	}
	if len(p.RequestedSchema) == 0 {
		p.RequestedSchema = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	if _, err := parseRequestedSchema(p.RequestedSchema); err != nil {
		return nil, &client.ProtocolError{Msg: fmt.Sprintf("inputRequests[%q]: the requestedSchema is malformed: %v", r.Key, err)}
	}
	if a, ok := h.fromFile(r.Key); ok {
		if err := checkElicitResult(p.RequestedSchema, a); err != nil {
			return nil, exitcode.Usagef("--answers: the answer to %q does not fit what the server asked: %v", r.Key, err)
		}
		return a, nil
	}
	if fa, ok := h.cfg.FieldAnswers[r.Key]; ok && !h.used["field:"+r.Key] {
		h.used["field:"+r.Key] = true
		return h.fieldResult(r.Key, p.RequestedSchema, fa)
	}
	switch h.cfg.Elicit {
	case "decline", "cancel":
		return json.RawMessage(`{"action":"` + h.cfg.Elicit + `"}`), nil
	case "accept-defaults":
		content, err := elicitDefaults(p.RequestedSchema)
		if err != nil {
			return nil, exitcode.Usagef("--elicit accept-defaults cannot answer %q: %v (give it with --answer %s.FIELD=VALUE)", r.Key, err, r.Key)
		}
		return acceptResult(content), nil
	}
	if h.prompt != nil {
		return h.atPrompt(ctx, func(ctx context.Context) (json.RawMessage, error) {
			return h.prompt.askForm(ctx, p.Message, p.RequestedSchema)
		})
	}
	return nil, &client.InputRequiredError{Reason: "no terminal to ask at, and no --answer, --answers or --elicit for it", Err: client.ErrNoAnswer}
}

func (h *Handler) elicitURL(ctx context.Context, key string, p elicitParams) (json.RawMessage, error) {
	if a, ok := h.fromFile(key); ok {
		return a, nil
	}
	switch h.cfg.Elicit {
	case "decline", "cancel":
		return json.RawMessage(`{"action":"` + h.cfg.Elicit + `"}`), nil
	}
	page, err := parsePageURL(p.URL)
	if err != nil {
		// Nobody is shown a URL whose host they cannot tell, at a
		// terminal or later from a continuation: the server hears cancel
		// (the spec's answer when the page cannot be loaded).
		h.progress.Clear()
		if h.prompt != nil {
			h.prompt.refusedURL(p.Message, p.URL, err)
		} else {
			fmt.Fprintf(h.ios.ErrOut, "mcpctl: warning: refused the server's URL elicitation %s (%s): %s; answered cancel\n",
				output.SanitizeLine(quoteShort(key)), output.SanitizeLine(quoteShort(p.URL)), output.SanitizeLine(err.Error()))
		}
		return json.RawMessage(`{"action":"cancel"}`), nil
	}
	if h.prompt != nil {
		return h.atPrompt(ctx, func(ctx context.Context) (json.RawMessage, error) {
			return h.prompt.askURL(ctx, p.Message, page, h.cfg.OpenURLs, h.open)
		})
	}
	return nil, &client.InputRequiredError{Reason: fmt.Sprintf("the server asks you to visit %s (host %s) in a browser; run at a terminal, or answer with --answers FILE",
		output.SanitizeLine(page.open), output.SanitizeLine(page.hostLine())), Err: client.ErrNoAnswer}
}

// fieldResult builds {"action":"accept","content":…} from --answer items,
// typed by the requested schema, and checks it.
func (h *Handler) fieldResult(key string, schema json.RawMessage, items []FieldAnswer) (json.RawMessage, error) {
	content := ojson.Members{}
	for _, it := range items {
		v, err := typeElicitValue(schema, it.Field, it.Value)
		if err != nil {
			return nil, exitcode.Usagef("--answer %s.%s: %v", key, it.Field, err)
		}
		content.Set(it.Field, v)
	}
	res := acceptResult(content.JSON())
	if err := checkElicitResult(schema, res); err != nil {
		return nil, exitcode.Usagef("--answer %s: %v", key, err)
	}
	return res, nil
}

func acceptResult(content json.RawMessage) json.RawMessage {
	o := ojson.Members{}
	o.Set("action", ojson.String("accept"))
	o.Set("content", content)
	return o.JSON()
}

func rootsResult(roots []Root) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"roots":[`)
	for i, r := range roots {
		if i > 0 {
			b.WriteByte(',')
		}
		o := ojson.Members{}
		o.Set("uri", ojson.String(r.URI))
		if r.Name != "" {
			o.Set("name", ojson.String(r.Name))
		}
		b.Write(o.JSON())
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// runSampling pipes the request's params to the user's command and reads
// a CreateMessageResult from its stdout.
func runSampling(ctx context.Context, argv []string, params json.RawMessage) (json.RawMessage, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(params)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		return nil, exitcode.Usagef("--sampling-cmd %s failed: %v %s", argv[0], err, output.OneLine(msg))
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &res); err != nil {
		return nil, exitcode.Usagef("--sampling-cmd %s did not print a JSON object (a CreateMessageResult): %v", argv[0], err)
	}
	if _, ok := res["content"]; !ok {
		return nil, exitcode.Usagef("--sampling-cmd %s printed no \"content\": a CreateMessageResult needs role, content and model", argv[0])
	}
	return json.RawMessage(bytes.TrimSpace(stdout.Bytes())), nil
}
