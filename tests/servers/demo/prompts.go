package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// reportStyles doubles as the completion list for the style argument.
var reportStyles = []string{"concise", "detailed", "casual", "forecaster"}

var styleInstructions = map[string]string{
	"concise":    "Keep it to one or two sentences.",
	"detailed":   "Cover temperature, sky conditions, humidity and what they mean for outdoor plans.",
	"casual":     "Write it like a friendly text message.",
	"forecaster": "Write it like a TV weather forecaster.",
}

func addPrompts(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{
		Name:        "weather_report",
		Title:       "Weather report",
		Description: "Ask the model to write a short weather report for a location, using the server's current reading.",
		Arguments: []*mcp.PromptArgument{
			{Name: "location", Title: "Location", Description: "City or place to report on, e.g. Paris", Required: true},
			{Name: "style", Title: "Style", Description: "Writing style: concise (default), detailed, casual or forecaster"},
		},
	}, weatherReport)
}

// weatherReport embeds the reading as a resource so clients that render
// embedded resources show the same JSON as demo://weather/{location}.
func weatherReport(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	location := strings.TrimSpace(req.Params.Arguments["location"])
	if location == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `missing required argument "location"`}
	}
	style := req.Params.Arguments["style"]
	if style == "" {
		style = "concise"
	}
	instruction, ok := styleInstructions[style]
	if !ok {
		return nil, &jsonrpc.Error{
			Code:    jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("invalid style %q: want one of %s", style, strings.Join(reportStyles, ", ")),
		}
	}
	r, err := fakeWeather(location, "metric")
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	body, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return &mcp.GetPromptResult{
		Description: fmt.Sprintf("Weather report for %s (%s)", location, style),
		Messages: []*mcp.PromptMessage{
			{
				Role: "user",
				Content: &mcp.TextContent{Text: fmt.Sprintf(
					"Write a %s weather report for %s based on the reading below. %s", style, location, instruction)},
			},
			{
				Role: "user",
				Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
					URI:      weatherURIPrefix + url.PathEscape(location),
					MIMEType: "application/json",
					Text:     string(body),
				}},
			},
		},
	}, nil
}
