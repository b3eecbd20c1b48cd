package oauth

// Dynamic Client Registration (RFC 7591 §3): the client's metadata is
// POSTed as JSON to the registration endpoint; 201 Created carries the
// client information (a client_id at least), 400 an error code.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// clientMetadata is the registration request (RFC 7591 §2; application_type
// from OpenID Connect Dynamic Client Registration, which the MCP spec asks
// native clients to send).
type clientMetadata struct {
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	ClientName              string   `json:"client_name,omitempty"`
	ApplicationType         string   `json:"application_type,omitempty"`
}

// registration is the client information response (RFC 7591 §3.2.1):
// the identity issued and the metadata the server settled on.
type registration struct {
	ClientID                string   `json:"client_id"`
	ClientSecret            string   `json:"client_secret,omitempty"`
	RedirectURIs            []string `json:"redirect_uris,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
}

// registrationError is a refusal (RFC 7591 §3.2.2): HTTP 400 with an error
// code such as invalid_redirect_uri or invalid_client_metadata.
type registrationError struct {
	Code        string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

func (e *registrationError) Error() string {
	if e.Description == "" {
		return e.Code
	}
	return e.Code + " " + e.Description
}

// maxRegistrationBody bounds what is read of a registration answer.
const maxRegistrationBody = 1 << 20

// register sends one registration request. An answer that is neither a
// client information response nor an RFC 7591 error is an error that
// names its status, never its body (server text is not repeated).
func register(ctx context.Context, hc *http.Client, endpoint string, meta *clientMetadata) (*registration, error) {
	body, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxRegistrationBody))
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	switch resp.StatusCode {
	case http.StatusCreated, http.StatusOK: // 201 is the RFC's; 200 is common enough to take
		var r registration
		if err := json.Unmarshal(answer, &r); err != nil {
			return nil, fmt.Errorf("HTTP %s: the answer is not a JSON object: %w", resp.Status, err)
		}
		if r.ClientID == "" {
			return nil, fmt.Errorf("HTTP %s: the answer has no client_id", resp.Status)
		}
		return &r, nil
	case http.StatusBadRequest:
		var re registrationError
		if err := json.Unmarshal(answer, &re); err != nil || re.Code == "" {
			return nil, fmt.Errorf("HTTP %s without an RFC 7591 error", resp.Status)
		}
		return nil, &re
	}
	return nil, errors.New("HTTP " + resp.Status)
}
