package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
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

// logoPNG is rendered once at startup instead of embedded so the repository
// carries no binary file; the encoder output is deterministic.
var logoPNG = renderLogo()

// renderLogo draws a 16x16 two-colour diagonal, small enough to be cheap
// over the wire but a real, decodable PNG.
func renderLogo() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 16, 16))
	blue := color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0xff}
	white := color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	for y := range 16 {
		for x := range 16 {
			if x >= y {
				img.Set(x, y, blue)
			} else {
				img.Set(x, y, white)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // encoding an in-memory image cannot fail
	}
	return buf.Bytes()
}

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
