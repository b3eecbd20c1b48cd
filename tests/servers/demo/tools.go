package main

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Schemas are written out by hand rather than inferred from the Go types:
// inference cannot express enum/default, and literal JSON keeps tools/list
// byte-stable for the CLI's golden tests.
var (
	calculatorInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "expression": {
      "type": "string",
      "description": "Arithmetic expression, e.g. 2*(3+4)"
    }
  },
  "required": ["expression"],
  "additionalProperties": false
}`)

	weatherInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "location": {
      "type": "string",
      "description": "City or place name, e.g. \"San Francisco\" or \"SF\""
    },
    "units": {
      "type": "string",
      "description": "Unit system for the temperature: metric (°C), imperial (°F) or kelvin (K)",
      "enum": ["metric", "imperial", "kelvin"],
      "default": "metric"
    }
  },
  "required": ["location"],
  "additionalProperties": false
}`)

	weatherOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "location": {"type": "string", "description": "Location the reading is for, as requested"},
    "temperature": {"type": "number", "description": "Air temperature in the requested units"},
    "units": {"type": "string", "enum": ["metric", "imperial", "kelvin"], "description": "Unit system of temperature"},
    "conditions": {"type": "string", "description": "Short description of the sky and precipitation"},
    "humidity": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Relative humidity in percent"}
  },
  "required": ["location", "temperature", "units", "conditions", "humidity"]
}`)
)

type calculatorInput struct {
	Expression string `json:"expression"`
}

type weatherInput struct {
	Location string `json:"location"`
	Units    string `json:"units"`
}

func addTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:  "calculator_arithmetic",
		Title: "Calculator",
		Description: "Evaluate an arithmetic expression and return the numeric result. " +
			"Supports + - * /, parentheses, unary minus and decimal numbers. " +
			"Use this instead of doing arithmetic in your head.",
		InputSchema: calculatorInputSchema,
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint:   true,
			IdempotentHint: true,
			OpenWorldHint:  new(false),
		},
	}, calculate)

	mcp.AddTool(s, &mcp.Tool{
		Name:  "weather_current",
		Title: "Current Weather",
		Description: "Get the current weather conditions for a location: temperature, " +
			"sky conditions and relative humidity. Temperature is reported in the requested units.",
		InputSchema:  weatherInputSchema,
		OutputSchema: weatherOutputSchema,
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint:   true,
			IdempotentHint: true,
			OpenWorldHint:  new(false),
		},
	}, currentWeather)
}

// calculate reports bad expressions as a plain error, which the SDK turns
// into an isError tool result: the model should see and correct the mistake,
// so it must not be a JSON-RPC error.
func calculate(_ context.Context, _ *mcp.CallToolRequest, in calculatorInput) (*mcp.CallToolResult, any, error) {
	v, err := evaluate(in.Expression)
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: formatNumber(v)}},
	}, nil, nil
}

func currentWeather(_ context.Context, _ *mcp.CallToolRequest, in weatherInput) (*mcp.CallToolResult, *weatherReading, error) {
	r, err := fakeWeather(in.Location, in.Units)
	if err != nil {
		return nil, nil, err
	}
	// The SDK fills structuredContent from the returned value; the text
	// block is the summary for clients that ignore structured output.
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: r.summary()}},
	}, &r, nil
}
