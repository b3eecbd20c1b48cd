package main

// Tools that ask the user through elicitation (multi round-trip requests):
// signup_form (form mode, every field type), open_dashboard (URL mode) and
// multi_step (two rounds chained through requestState).

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// signupSchema uses every primitive the elicitation schema subset allows.
var signupSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "name": {"type": "string", "title": "Full name", "description": "Your name as it should appear on the account", "minLength": 1, "maxLength": 100},
    "email": {"type": "string", "format": "email", "title": "Email address", "description": "Where the confirmation is sent"},
    "website": {"type": "string", "format": "uri", "title": "Website"},
    "birthday": {"type": "string", "format": "date", "title": "Birthday"},
    "meeting": {"type": "string", "format": "date-time", "title": "Intro call", "description": "When to schedule the intro call"},
    "age": {"type": "integer", "title": "Age", "minimum": 0, "maximum": 150},
    "height": {"type": "number", "title": "Height (m)", "minimum": 0.5, "maximum": 3.0},
    "newsletter": {"type": "boolean", "title": "Subscribe to the newsletter", "default": true},
    "plan": {"type": "string", "title": "Plan", "enum": ["free", "pro", "team"], "default": "free"},
    "tier": {"type": "string", "title": "Support tier", "oneOf": [
      {"const": "basic", "title": "Basic (community)"},
      {"const": "priority", "title": "Priority (next business day)"},
      {"const": "enterprise", "title": "Enterprise (1 hour)"}
    ]},
    "topics": {"type": "array", "title": "Topics", "items": {"type": "string", "enum": ["go", "rust", "mcp"]}},
    "colors": {"type": "array", "title": "Favourite colours", "items": {"anyOf": [
      {"const": "#ff0000", "title": "Red"},
      {"const": "#00ff00", "title": "Green"},
      {"const": "#0000ff", "title": "Blue"}
    ]}}
  },
  "required": ["name", "email"]
}`)

var (
	colorSchema = json.RawMessage(`{"type":"object","properties":{"color":{"type":"string","title":"Colour","enum":["red","green","blue"]}},"required":["color"]}`)
	countSchema = json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer","title":"How many?","minimum":1,"maximum":100}},"required":["count"]}`)
)

func formRequest(message string, schema json.RawMessage) *mcp.ElicitParams {
	return &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: schema}
}

// signupForm asks for the whole form in one elicitation and echoes what it
// received, exactly as received (defaults are not filled in).
func signupForm(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	if err := requireCapability(req, capFormElicitation); err != nil {
		return nil, nil, err
	}
	er, err := elicitResponse(req, "signup")
	if err != nil {
		return nil, nil, err
	}
	if er == nil {
		return inputRequired(mcp.InputRequestMap{
			"signup": formRequest("Sign up for the demo service", signupSchema),
		}, ""), nil, nil
	}
	if er.Action != "accept" {
		return textResult("signup %s: nothing was submitted", pastTense(er.Action)), nil, nil
	}
	if err := checkContent("signup", signupSchema, er.Content); err != nil {
		return nil, nil, err
	}
	body, _ := json.Marshal(er.Content)
	res := textResult("signed up with %s", body)
	res.StructuredContent = json.RawMessage(body)
	return res, nil, nil
}

type dashboardState struct {
	Session       string `json:"session"`
	ElicitationID string `json:"elicitationId"`
}

// openDashboard sends the user to a URL out of band. The session in the URL
// travels in requestState so the retry can tell which connection it is about.
func openDashboard(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	if err := requireCapability(req, capURLElicitation); err != nil {
		return nil, nil, err
	}
	var st dashboardState
	if req.Params.RequestState != "" {
		if err := openState("open_dashboard", req.Params.RequestState, &st); err != nil {
			return nil, nil, err
		}
	}
	er, err := elicitResponse(req, "dashboard")
	if err != nil {
		return nil, nil, err
	}
	if er == nil || st.Session == "" {
		st = dashboardState{Session: rand.Text(), ElicitationID: rand.Text()}
		return inputRequired(mcp.InputRequestMap{
			"dashboard": &mcp.ElicitParams{
				Mode:          "url",
				Message:       "Open the dashboard to connect your account.",
				URL:           "https://example.com/connect?session=" + st.Session,
				ElicitationID: st.ElicitationID,
			},
		}, sealState("open_dashboard", st)), nil, nil
	}
	if er.Action != "accept" {
		return textResult("dashboard connection %s", pastTense(er.Action)), nil, nil
	}
	// A real server would now check that the out-of-band flow for
	// st.Session finished; the demo takes the user's word for it.
	return textResult("connected"), nil, nil
}

type multiStepState struct {
	Color string `json:"color"`
}

// multiStep asks for a colour, then (with the colour carried in signed
// requestState) for a count.
func multiStep(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	if err := requireCapability(req, capFormElicitation); err != nil {
		return nil, nil, err
	}
	var st multiStepState
	if req.Params.RequestState != "" {
		if err := openState("multi_step", req.Params.RequestState, &st); err != nil {
			return nil, nil, err
		}
	}
	askCount := func() *mcp.CallToolResult {
		return inputRequired(mcp.InputRequestMap{
			"count": formRequest(fmt.Sprintf("How many %s things?", st.Color), countSchema),
		}, sealState("multi_step", st))
	}

	if st.Color == "" {
		er, err := elicitResponse(req, "color")
		if err != nil {
			return nil, nil, err
		}
		if er == nil {
			return inputRequired(mcp.InputRequestMap{
				"color": formRequest("Pick a colour", colorSchema),
			}, ""), nil, nil
		}
		if er.Action != "accept" {
			return textResult("multi_step stopped: colour question %s", pastTense(er.Action)), nil, nil
		}
		if err := checkContent("color", colorSchema, er.Content); err != nil {
			return nil, nil, err
		}
		st.Color = er.Content["color"].(string)
		return askCount(), nil, nil
	}

	er, err := elicitResponse(req, "count")
	if err != nil {
		return nil, nil, err
	}
	if er == nil {
		return askCount(), nil, nil
	}
	if er.Action != "accept" {
		return textResult("multi_step stopped: count question %s", pastTense(er.Action)), nil, nil
	}
	if err := checkContent("count", countSchema, er.Content); err != nil {
		return nil, nil, err
	}
	n, _ := er.Content["count"].(float64) // the schema check made it an integer
	return textResult("%d %s things", int64(math.Round(n)), st.Color), nil, nil
}
