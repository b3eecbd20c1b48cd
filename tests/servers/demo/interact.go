package main

// Registration of the tools that exercise client interactions, and the two
// that ask for roots and sampling.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var noArgsSchema = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)

func addInteractiveTools(s *mcp.Server, tasks *taskStore) {
	closed := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}
	mcp.AddTool(s, &mcp.Tool{
		Name:        "signup_form",
		Title:       "Sign-up form",
		Description: "Ask the user to fill in a sign-up form (form elicitation with every field type) and echo what was submitted.",
		InputSchema: noArgsSchema,
		Annotations: closed,
	}, signupForm)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "open_dashboard",
		Title:       "Open dashboard",
		Description: "Send the user to a dashboard URL (URL elicitation) to connect an account.",
		InputSchema: noArgsSchema,
		Annotations: closed,
	}, openDashboard)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "list_roots_tool",
		Title:       "List roots",
		Description: "Ask the client for its roots and list them.",
		InputSchema: noArgsSchema,
		Annotations: closed,
	}, listRootsTool)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "ask_model",
		Title:       "Ask the model",
		Description: "Ask the client's model (sampling) for the capital of France and return its answer.",
		InputSchema: noArgsSchema,
		Annotations: closed,
	}, askModel)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "multi_step",
		Title:       "Multi-step question",
		Description: "Ask for a colour, then for a count, in two rounds, and combine the answers.",
		InputSchema: noArgsSchema,
		Annotations: closed,
	}, multiStep)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "long_job",
		Title:       "Long job",
		Description: "Work through a number of steps, reporting progress and log messages on the way.",
		InputSchema: longJobSchema,
		Annotations: closed,
	}, longJob)
	mcp.AddTool(s, &mcp.Tool{
		Name:  "slow_task",
		Title: "Slow task",
		Description: "A slow job that asks for confirmation half-way. Runs as a task when the client " +
			"supports the tasks extension, otherwise synchronously.",
		InputSchema: noArgsSchema,
		Annotations: closed,
	}, tasks.slowTaskSync)
}

func listRootsTool(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	if err := requireCapability(req, capRoots); err != nil {
		return nil, nil, err
	}
	r, ok := req.Params.InputResponses["roots"]
	if !ok || r == nil {
		return inputRequired(mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}, ""), nil, nil
	}
	lr, ok := r.(*mcp.ListRootsResult)
	if !ok {
		return nil, nil, invalidParams(`inputResponses["roots"]: expected a roots/list result (with "roots")`)
	}
	type root struct {
		URI  string `json:"uri"`
		Name string `json:"name,omitempty"`
	}
	roots := []root{}
	lines := []string{fmt.Sprintf("%d root(s)", len(lr.Roots))}
	for _, rt := range lr.Roots {
		if rt == nil {
			continue
		}
		roots = append(roots, root{rt.URI, rt.Name})
		line := rt.URI
		if rt.Name != "" {
			line += " (" + rt.Name + ")"
		}
		lines = append(lines, line)
	}
	res := textResult("%s", strings.Join(lines, "\n"))
	res.StructuredContent = map[string]any{"roots": roots}
	return res, nil, nil
}

func askModel(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	if err := requireCapability(req, capSampling); err != nil {
		return nil, nil, err
	}
	r, ok := req.Params.InputResponses["capital"]
	if !ok || r == nil {
		return inputRequired(mcp.InputRequestMap{"capital": &mcp.CreateMessageParams{
			Messages: []*mcp.SamplingMessage{{
				Role:    "user",
				Content: &mcp.TextContent{Text: "What is the capital of France?"},
			}},
			MaxTokens: 50,
		}}, ""), nil, nil
	}
	var content []mcp.Content
	switch cm := r.(type) {
	case *mcp.CreateMessageWithToolsResult: // what the SDK decodes inputResponses into
		content = cm.Content
	case *mcp.CreateMessageResult: // from legacyRounds
		content = []mcp.Content{cm.Content}
	default:
		return nil, nil, invalidParams(`inputResponses["capital"]: expected a sampling/createMessage result (with "role")`)
	}
	var texts []string
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	if len(texts) == 0 {
		return nil, nil, invalidParams(`inputResponses["capital"]: the model's answer has no text content`)
	}
	return textResult("%s", strings.Join(texts, "\n")), nil, nil
}
