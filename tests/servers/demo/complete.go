package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cities is sorted so completion results come back in a stable order.
var cities = []string{
	"Amsterdam", "Athens", "Auckland", "Bangkok", "Barcelona", "Berlin",
	"Boston", "Buenos Aires", "Cairo", "Cape Town", "Chicago", "Copenhagen",
	"Dubai", "Dublin", "Lisbon", "London", "Los Angeles", "Madrid",
	"Melbourne", "Mexico City", "Montreal", "Mumbai", "Nairobi", "New York",
	"Oslo", "Paris", "Prague", "Rome", "San Francisco", "Santiago",
	"Seattle", "Seoul", "Singapore", "Stockholm", "Sydney", "Tokyo",
	"Toronto", "Vancouver", "Vienna", "Zurich",
}

// maxCompletionValues is the cap the spec puts on completion.values.
const maxCompletionValues = 100

func complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref, arg := req.Params.Ref, req.Params.Argument
	var candidates []string
	switch {
	case ref == nil:
		return nil, invalidParams("missing ref")
	case ref.Type == "ref/prompt" && ref.Name == "weather_report":
		switch arg.Name {
		case "location":
			candidates = cities
		case "style":
			candidates = reportStyles
		}
	case ref.Type == "ref/resource" && ref.URI == weatherURITemplate:
		if arg.Name == "location" {
			candidates = cities
		}
	case ref.Type == "ref/prompt":
		return nil, invalidParams(fmt.Sprintf("unknown prompt %q", ref.Name))
	default:
		return nil, invalidParams(fmt.Sprintf("no completions for resource %q", ref.URI))
	}

	// An unknown argument of a known prompt gets an empty list rather than
	// an error: the client is only asking for hints.
	values := filterPrefix(candidates, arg.Value)
	total := len(values)
	if len(values) > maxCompletionValues {
		values = values[:maxCompletionValues]
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{
		Values:  values,
		Total:   total,
		HasMore: total > len(values),
	}}, nil
}

// filterPrefix matches case-insensitively because users type "san" and
// expect "San Francisco"; it never returns nil so values encodes as [].
func filterPrefix(list []string, prefix string) []string {
	prefix = strings.ToLower(prefix)
	out := []string{}
	for _, s := range list {
		if strings.HasPrefix(strings.ToLower(s), prefix) {
			out = append(out, s)
		}
	}
	return slices.Clip(out)
}

func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}
