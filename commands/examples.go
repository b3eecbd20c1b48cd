package commands

// examples are shown at the end of every command's --help and in its man
// page, keyed by the command's path ("" is mcpctl itself). They are real
// command lines: TestExamples checks that each one names its command and
// only flags that exist. "weather" is a server named in the config
// ('mcpctl config add weather --stdio …'), e.g. the demo server of
// tests/servers/demo, whose tools, prompts and resources they use.
var examples = map[string][]string{
	"": {
		"mcpctl --stdio 'npx -y @modelcontextprotocol/server-everything' tools list",
		"mcpctl -s weather tools call weather_current location=SF units=imperial",
	},
	"discover": {
		"mcpctl -s weather discover",
		"mcpctl --url https://mcp.example.com/mcp discover -o json --jq .serverInfo.name",
	},
	"auth": {
		"mcpctl --url https://mcp.example.com/mcp auth login",
		"mcpctl --url https://mcp.example.com/mcp auth status",
	},
	"auth login": {
		"mcpctl --url https://mcp.example.com/mcp auth login",
		"mcpctl --url https://mcp.example.com/mcp --no-browser auth login",
	},
	"auth status": {
		"mcpctl --url https://mcp.example.com/mcp auth status",
	},
	"auth logout": {
		"mcpctl --url https://mcp.example.com/mcp auth logout",
	},
	"auth token": {
		"mcpctl --url https://mcp.example.com/mcp auth token",
	},
	"session": {
		"mcpctl --stdio 'npx -y @modelcontextprotocol/server-everything' session start",
		"mcpctl session list",
	},
	"session start": {
		"mcpctl --stdio 'npx -y @modelcontextprotocol/server-everything' session start --idle 30m",
		"mcpctl -s weather session start --replace",
	},
	"session list": {
		"mcpctl session list",
		"mcpctl session list --jq '.sessions[].name'",
	},
	"session stop": {
		"mcpctl session stop weather",
		"mcpctl session stop --all",
	},
	"session logs": {
		"mcpctl session logs weather",
	},
	"ping": {
		"mcpctl --stdio 'npx -y @modelcontextprotocol/server-everything' ping",
	},
	"tools": {
		"mcpctl -s weather tools list -o table",
		"mcpctl -s weather tools call weather_current location=SF",
	},
	"tools list": {
		"mcpctl -s weather tools list -o table",
		"mcpctl -s weather tools list --jq '.tools[].name'",
	},
	"tools describe": {
		"mcpctl -s weather tools describe weather_current",
	},
	"tools call": {
		"mcpctl -s weather tools call weather_current location=SF units=imperial",
		`mcpctl -s weather tools call calculator_arithmetic --json '{"expression":"2*(3+4)"}'`,
		"mcpctl -s everything tools call simulate-research-query topic=go --no-wait",
		"mcpctl -s files tools call read_media_file path=logo.png --out logo.png",
	},
	"resources": {
		"mcpctl -s weather resources list -o table",
		"mcpctl -s weather resources read demo://readme",
	},
	"resources list": {
		"mcpctl -s weather resources list -o table",
	},
	"resources templates": {
		"mcpctl -s weather resources templates",
	},
	"resources read": {
		"mcpctl -s weather resources read demo://readme",
		"mcpctl -s weather resources read demo://logo.png --out logo.png",
	},
	"skills": {
		"mcpctl -s docs skills list -o table",
		"mcpctl -s docs skills get pdf-processing",
	},
	"skills list": {
		"mcpctl -s docs skills list -o table",
		"mcpctl -s docs skills list --jq '.skills[].uri'",
	},
	"skills get": {
		"mcpctl -s docs skills get pdf-processing",
		"mcpctl -s docs skills get acme/billing/refunds references/GUIDE.md",
		"mcpctl -s docs skills get skill://pdf-processing/SKILL.md --out skills",
	},
	"skills dir": {
		"mcpctl -s docs skills dir skill://pdf-processing/templates -o table",
	},
	"prompts": {
		"mcpctl -s weather prompts list",
		"mcpctl -s weather prompts get weather_report location=Oslo",
	},
	"prompts list": {
		"mcpctl -s weather prompts list -o table",
	},
	"prompts get": {
		"mcpctl -s weather prompts get weather_report location=Oslo style=concise",
	},
	"complete": {
		"mcpctl -s weather complete --prompt weather_report location=Sa",
		"mcpctl -s weather complete --template 'demo://weather/{location}' location=Ber",
	},
	"call": {
		"mcpctl -s weather call ping",
		`echo '{"name":"weather_current","arguments":{"location":"SF"}}' | mcpctl -s weather call tools/call -`,
	},
	"batch": {
		`jq -c '.[] | {method: "tools/call", params: {name: "weather_current", arguments: {location: .}}}' cities.json | mcpctl -s weather batch`,
		"printf 'tools call weather_current location=SF\\nping\\n' | mcpctl -s weather batch",
		"mcpctl -s weather batch requests.txt -P 4 --fail-fast",
	},
	"cache": {
		"mcpctl cache list -o table",
		"mcpctl cache clear",
	},
	"cache list": {
		"mcpctl cache list -o table",
	},
	"cache clear": {
		"mcpctl cache clear",
	},
	"tasks": {
		"mcpctl -s weather tools call slow_task --no-wait",
		"mcpctl -s weather tasks wait 3f9c1c2e",
	},
	"tasks get": {
		"mcpctl -s weather tasks get 3f9c1c2e",
	},
	"tasks wait": {
		"mcpctl -s weather tasks wait 3f9c1c2e --answer confirm.confirm=true",
	},
	"tasks result": {
		"mcpctl -s everything tasks result 5e4473 --jq '.content[0].text'",
	},
	"tasks update": {
		"mcpctl -s weather tasks update 3f9c1c2e --answer confirm.confirm=true",
	},
	"tasks cancel": {
		"mcpctl -s weather tasks cancel 3f9c1c2e",
	},
	"tasks list": {
		"mcpctl tasks list -o table",
		"mcpctl -s everything tasks list --from-server",
	},
	"listen": {
		"mcpctl -s weather listen --tools --resource demo://counter",
		"mcpctl -s weather listen --tools --once --refetch",
	},
	"resume": {
		"mcpctl -s weather tools call signup_form > pending.json",
		"mcpctl resume pending.json --answer signup.name=Ada --answer signup.email=ada@example.com",
	},
	"config": {
		"mcpctl config add weather --stdio 'go run ./tests/servers/demo'",
		"mcpctl config list",
	},
	"config list": {
		"mcpctl config list -o table",
		"mcpctl config list -o json --jq '.servers[] | select(.kind == \"http\") | .name'",
	},
	"config show": {
		"mcpctl config show weather",
		"mcpctl config show ~/.cursor/mcp.json:github",
	},
	"config add": {
		"mcpctl config add weather --url https://weather.example.com/mcp -H 'Authorization: Bearer ${WEATHER_TOKEN}'",
		"mcpctl config add files --stdio 'npx -y @modelcontextprotocol/server-filesystem /srv/docs' --timeout 2m",
	},
	"config remove": {
		"mcpctl config remove weather",
	},
	"config import": {
		"mcpctl config import ~/.cursor/mcp.json --all",
		"mcpctl config import .vscode/mcp.json github --force",
	},
	"config edit": {
		"EDITOR=nano mcpctl config edit",
	},
	"config trust": {
		"mcpctl config list -o json --jq '.servers[] | select(.trust == \"untrusted\")'",
		"mcpctl config trust",
		"mcpctl config trust .vscode/mcp.json",
	},
	"completion": {
		"mcpctl completion bash > ~/.local/share/bash-completion/completions/mcpctl",
		"mcpctl completion fish > ~/.config/fish/completions/mcpctl.fish",
	},
	"man": {
		"mcpctl man --dir ~/.local/share/man/man1",
	},
	// issue 15 item 6
	"version": {
		"mcpctl version",
		"mcpctl version -o json --jq .commit",
	},
	"help": {
		"mcpctl help items",
		"mcpctl help tools call",
	},
}
