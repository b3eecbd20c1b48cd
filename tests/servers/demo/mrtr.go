package main

// Helpers shared by the tools that need input from the client: capability
// checks, integrity-protected requestState, and reading inputResponses.

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// tasksExtension is the capability key of the Tasks extension.
const tasksExtension = "io.modelcontextprotocol/tasks"

// capability names a client capability a tool needs; required is what goes
// into data.requiredCapabilities of the -32021 error when it is missing.
type capability struct {
	name     string
	required map[string]any
	has      func(*mcp.ClientCapabilities) bool
}

var (
	capFormElicitation = capability{"elicitation (form mode)",
		map[string]any{"elicitation": map[string]any{"form": map[string]any{}}},
		func(c *mcp.ClientCapabilities) bool {
			// An empty elicitation object means form mode only.
			return c.Elicitation != nil && (c.Elicitation.Form != nil || c.Elicitation.URL == nil)
		}}
	capURLElicitation = capability{"elicitation (url mode)",
		map[string]any{"elicitation": map[string]any{"url": map[string]any{}}},
		func(c *mcp.ClientCapabilities) bool { return c.Elicitation != nil && c.Elicitation.URL != nil }}
	capRoots = capability{"roots",
		map[string]any{"roots": map[string]any{}},
		func(c *mcp.ClientCapabilities) bool { return c.RootsV2 != nil }}
	capSampling = capability{"sampling",
		map[string]any{"sampling": map[string]any{}},
		func(c *mcp.ClientCapabilities) bool { return c.Sampling != nil }}
)

func hasTasksExtension(c *mcp.ClientCapabilities) bool {
	if c == nil {
		return false
	}
	_, ok := c.Extensions[tasksExtension]
	return ok
}

// requireCapability returns the MissingRequiredClientCapability error when
// the request did not declare c: the spec forbids sending inputRequests the
// client has not declared support for.
func requireCapability(req *mcp.CallToolRequest, c capability) error {
	if caps := req.ClientCapabilities(); caps != nil && c.has(caps) {
		return nil
	}
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": c.required})
	return &jsonrpc.Error{
		Code:    mcp.CodeMissingRequiredClientCapabilities,
		Message: fmt.Sprintf("tool %q needs the client capability %s, which this request did not declare", req.Params.Name, c.name),
		Data:    data,
	}
}

// inputRequired is the InputRequiredResult of a tools/call.
func inputRequired(requests mcp.InputRequestMap, state string) *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: requests, RequestState: state}
}

func textResult(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// elicitResponse returns the elicitation result the client sent under key,
// or nil if there is none (the caller then asks again).
func elicitResponse(req *mcp.CallToolRequest, key string) (*mcp.ElicitResult, error) {
	r, ok := req.Params.InputResponses[key]
	if !ok || r == nil {
		return nil, nil
	}
	er, ok := r.(*mcp.ElicitResult)
	if !ok {
		return nil, invalidParams(fmt.Sprintf("inputResponses[%q]: expected an elicitation result (with \"action\")", key))
	}
	switch er.Action {
	case "accept", "decline", "cancel":
		return er, nil
	}
	return nil, invalidParams(fmt.Sprintf("inputResponses[%q]: action %q is not accept, decline or cancel", key, er.Action))
}

// checkContent validates accepted form content against the schema the
// server asked with, formats included.
func checkContent(key string, schema json.RawMessage, content map[string]any) error {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return err
	}
	if err := c.AddResource("urn:demo:elicitation", doc); err != nil {
		return err
	}
	sch, err := c.Compile("urn:demo:elicitation")
	if err != nil {
		return err
	}
	if content == nil {
		content = map[string]any{}
	}
	raw, _ := json.Marshal(content)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	if err := sch.Validate(inst); err != nil {
		// The first line names the schema; the rest are the failures.
		lines := strings.Split(err.Error(), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimPrefix(strings.TrimSpace(l), "- ")
		}
		msg := strings.Join(lines[min(1, len(lines)-1):], "; ")
		return invalidParams(fmt.Sprintf("inputResponses[%q].content does not match the requested schema: %s", key, msg))
	}
	return nil
}

// Request state is base64url(JSON payload) "." base64url(HMAC-SHA256). The
// key comes from DEMO_STATE_KEY, else a fixed demo key: a stdio client that
// resumes a call later talks to a new process, which must still accept the
// state the first one issued (a real server would keep its key in a secret
// store). A random key per process would break exactly that.
var stateKey = func() []byte {
	if k := os.Getenv("DEMO_STATE_KEY"); k != "" {
		sum := sha256.Sum256([]byte(k))
		return sum[:]
	}
	sum := sha256.Sum256([]byte("mcpctl demo server: not a secret"))
	return sum[:]
}()

const stateTTL = 10 * time.Minute

type statePayload struct {
	Tool string          `json:"tool"` // the originating request
	Exp  int64           `json:"exp"`  // unix seconds
	Data json.RawMessage `json:"data,omitempty"`
}

func sealState(tool string, data any) string {
	d, _ := json.Marshal(data)
	p, _ := json.Marshal(statePayload{Tool: tool, Exp: time.Now().Add(stateTTL).Unix(), Data: d})
	body := base64.RawURLEncoding.EncodeToString(p)
	return body + "." + base64.RawURLEncoding.EncodeToString(stateMAC(body))
}

func stateMAC(body string) []byte {
	m := hmac.New(sha256.New, stateKey)
	m.Write([]byte(body))
	return m.Sum(nil)
}

// openState verifies state and decodes its data into v. Any failure is a
// JSON-RPC invalid-params error: the state is attacker-controlled input.
func openState(tool, state string, v any) error {
	bad := func(why string) error { return invalidParams("invalid requestState: " + why) }
	body, sig, ok := strings.Cut(state, ".")
	if !ok {
		return bad("malformed")
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, stateMAC(body)) {
		return bad("integrity check failed")
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return bad("malformed")
	}
	var p statePayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return bad("malformed")
	}
	if p.Tool != tool {
		return bad(fmt.Sprintf("issued for %q, not %q", p.Tool, tool))
	}
	if time.Now().Unix() > p.Exp {
		return bad("expired")
	}
	if err := json.Unmarshal(p.Data, v); err != nil {
		return bad("malformed")
	}
	return nil
}

// pastTense turns a decline or cancel action into words for a result.
func pastTense(action string) string {
	if action == "cancel" {
		return "cancelled"
	}
	return action + "d"
}

// inputRequiredResult is InputRequiredResult as the spec defines it. The SDK
// marshals an input-required CallToolResult with "content": null, a field
// the spec's shape does not have, so specShape re-wraps it.
type inputRequiredResult struct {
	ResultType    string              `json:"resultType"`
	InputRequests mcp.InputRequestMap `json:"inputRequests,omitempty"`
	RequestState  string              `json:"requestState,omitempty"`
	mcp.ResultBase
}

func specShape(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && err == nil && r.NeedsInput() {
			out := &inputRequiredResult{ResultType: "input_required", InputRequests: r.InputRequests, RequestState: r.RequestState}
			out.Meta = r.Meta
			return out, nil
		}
		return res, err
	}
}

// legacyRounds serves multi-round tools to clients of the initialize-based
// revisions, which cannot retry: the input requests are sent to the client
// as ordinary server-to-client requests and the tool is called again with
// the answers. The SDK does this for one round only, which is not enough for
// multi_step, so this loop takes over from the second round.
func legacyRounds(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if !ok || call.Params == nil || call.ProtocolVersion() >= "2026-07-28" {
			return next(ctx, method, req)
		}
		for round := 1; ; round++ {
			res, err := next(ctx, method, call)
			r, ok := res.(*mcp.CallToolResult)
			if err != nil || !ok || len(r.InputRequests) == 0 || round > 10 {
				return res, err
			}
			responses := mcp.InputResponseMap{}
			for key, ir := range r.InputRequests {
				var resp mcp.InputResponse
				switch p := ir.(type) {
				case *mcp.ElicitParams:
					resp, err = call.Session.Elicit(ctx, p)
				case *mcp.CreateMessageParams:
					resp, err = call.Session.CreateMessage(ctx, p)
				case *mcp.ListRootsParams:
					resp, err = call.Session.ListRoots(ctx, p)
				default:
					err = fmt.Errorf("unsupported input request %T", ir)
				}
				if err != nil {
					return nil, err
				}
				responses[key] = resp
			}
			p := *call.Params
			p.InputResponses, p.RequestState = responses, r.RequestState
			call = &mcp.CallToolRequest{Session: call.Session, Params: &p, Extra: call.Extra}
		}
	}
}
