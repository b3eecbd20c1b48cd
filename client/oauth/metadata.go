package oauth

// The two metadata documents discovery reads, with the members this
// package uses or may soon need; members not listed are ignored, as both
// RFCs require of unknown ones.

// ResourceMeta is protected resource metadata (RFC 9728 §2): what an MCP
// server says about itself as an OAuth protected resource.
type ResourceMeta struct {
	// Resource is the resource identifier, the MCP server's URL (REQUIRED).
	Resource string `json:"resource"`
	// AuthorizationServers are issuer identifiers; MCP requires at least one.
	AuthorizationServers []string `json:"authorization_servers,omitempty"`
	JWKSURI              string   `json:"jwks_uri,omitempty"`
	// ScopesSupported is used when neither the caller nor a challenge
	// names the scopes to ask for.
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported,omitempty"`
	ResourceName           string   `json:"resource_name,omitempty"`
	ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
	// legacy: there is none; this stands in for a 2025-03-26 server.
	legacy bool
}

// ServerMeta is authorization server metadata (RFC 8414 §2, which OpenID
// Connect Discovery's document shares for these members), with RFC 9207's
// issuer parameter flag and the Client ID Metadata Document flag of the
// MCP authorization spec.
type ServerMeta struct {
	// Issuer must equal the issuer the metadata was looked up for.
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint,omitempty"`
	TokenEndpoint                     string   `json:"token_endpoint,omitempty"`
	JWKSURI                           string   `json:"jwks_uri,omitempty"`
	RegistrationEndpoint              string   `json:"registration_endpoint,omitempty"`
	ScopesSupported                   []string `json:"scopes_supported,omitempty"`
	ResponseTypesSupported            []string `json:"response_types_supported,omitempty"`
	GrantTypesSupported               []string `json:"grant_types_supported,omitempty"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported,omitempty"`
	RevocationEndpoint                string   `json:"revocation_endpoint,omitempty"`
	IntrospectionEndpoint             string   `json:"introspection_endpoint,omitempty"`
	// CodeChallengeMethodsSupported is nil when the member is absent,
	// which means no PKCE (see checkPKCE).
	CodeChallengeMethodsSupported []string `json:"code_challenge_methods_supported,omitempty"`
	// AuthorizationResponseIssParameterSupported (RFC 9207 §3): the
	// authorization response then carries iss, and one without it is
	// refused.
	AuthorizationResponseIssParameterSupported bool `json:"authorization_response_iss_parameter_supported,omitempty"`
	// ClientIDMetadataDocumentSupported: the server takes a URL as a
	// client id and fetches the client's metadata from it.
	ClientIDMetadataDocumentSupported bool `json:"client_id_metadata_document_supported,omitempty"`
	// defaults: there is none; these are a 2025-03-26 server's default
	// endpoints.
	defaults bool
	// DPoPSigningAlgValuesSupported (RFC 9449 §5.1): the server takes
	// DPoP proofs signed with these.
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`
}
