package main

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	readmeURI          = "demo://readme"
	logoURI            = "demo://logo.png"
	weatherURITemplate = "demo://weather/{location}"
	weatherURIPrefix   = "demo://weather/"
)

const readmeText = `mcpctl demo server
==================

This server exists to exercise MCP clients such as mcpctl.

Tools:     calculator_arithmetic, weather_current
           signup_form (form elicitation), open_dashboard (URL elicitation),
           list_roots_tool (roots), ask_model (sampling), multi_step (two
           rounds), long_job (progress and logs), slow_task (a task when the
           client supports io.modelcontextprotocol/tasks)
           toggle_tool, toggle_prompt, toggle_resource, touch_resource and
           close_listeners (notifications for subscriptions/listen)
Resources: demo://readme (this file), demo://logo.png, demo://counter
           (incremented by touch_resource)
Templates: demo://weather/{location}
Prompts:   weather_report

toggle_tool, toggle_prompt and toggle_resource add or remove the tool
"ephemeral", the prompt "ephemeral_prompt" and the resource
demo://ephemeral. Run with --notify-every 1s to have the counter
incremented and "ephemeral" toggled every second.

All weather data is fake and derived from the location name, so the same
location always yields the same reading.
`

// logoPNG is a 16x16 two-colour diagonal (logo_test.go draws it and
// checks), small enough to be cheap over the wire but a real, decodable
// PNG. It is kept as the bytes image/png wrote with go1.26 rather than
// encoded at startup: the size is in the CLI scripts (147 bytes), and
// go1.27's compress/flate writes the same image a byte shorter.
var logoPNG = []byte("" +
	"\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52" +
	"\x00\x00\x00\x10\x00\x00\x00\x10\x08\x02\x00\x00\x00\x90\x91\x68" +
	"\x36\x00\x00\x00\x5a\x49\x44\x41\x54\x78\x9c\x94\xcb\xb1\x0d\x80" +
	"\x40\x0c\x43\x51\xcb\x62\x04\x7a\x46\x64\x15\x46\xa4\x67\x09\x0a" +
	"\xa4\xd3\x29\xe4\x62\x27\x4d\xfc\x8b\xb7\x1d\xe7\x83\xce\xf1\xbe" +
	"\xf6\x1e\x00\xd0\x32\xfc\x9e\x6f\x38\x96\x69\x38\x87\x63\x18\x5a" +
	"\x9a\x08\xa4\x49\x40\x6d\x72\x50\x98\x25\x58\x99\x0a\xa4\x46\x80" +
	"\xbf\xd1\x20\x18\x0b\xcc\xc6\x05\xc3\xbc\x01\x00\x00\xff\xff\x8f" +
	"\x2d\x18\x58\xa6\x8c\x9d\x7a\x00\x00\x00\x00\x49\x45\x4e\x44\xae" +
	"\x42\x60\x82")

func addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{
		URI:         readmeURI,
		Name:        "readme",
		Title:       "Demo server README",
		Description: "Overview of the tools, resources and prompts this demo server offers.",
		MIMEType:    "text/plain",
		Size:        int64(len(readmeText)),
	}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: readmeURI, MIMEType: "text/plain", Text: readmeText,
		}}}, nil
	})

	s.AddResource(&mcp.Resource{
		URI:         logoURI,
		Name:        "logo",
		Title:       "Demo server logo",
		Description: "16x16 PNG logo of the demo server.",
		MIMEType:    "image/png",
		Size:        int64(len(logoPNG)),
	}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: logoURI, MIMEType: "image/png", Blob: logoPNG,
		}}}, nil
	})

	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: weatherURITemplate,
		Name:        "weather-reading",
		Title:       "Weather reading",
		Description: "Current weather for a location as JSON (metric units). " +
			"Percent-encode spaces, e.g. demo://weather/New%20York.",
		MIMEType: "application/json",
	}, readWeatherResource)
}

func readWeatherResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	raw, ok := strings.CutPrefix(uri, weatherURIPrefix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	location, err := url.PathUnescape(raw)
	if err != nil || strings.TrimSpace(location) == "" || strings.Contains(location, "/") {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	r, err := fakeWeather(location, "metric")
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	body, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: uri, MIMEType: "application/json", Text: string(body),
	}}}, nil
}
