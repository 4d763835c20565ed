package main

import (
	"fmt"
	"strings"

	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/primitives"
)

// The server's authorization from its config's global.authorization:
//   - authorizer "" (none: every caller may do everything; loopback development only),
//     "default" (Temporal's) or "payflows" (roleAuthorizer);
//   - claimMapper "default": Temporal's JWT claim mapper on the keys at jwtKeyProvider.keySourceURIs.
//
// A setting that would leave the server open or refuse its own system worker stops the start
// with an error naming the setting.
type serverAuthorization struct {
	authorizer  authorization.Authorizer
	claimMapper authorization.ClaimMapper
	audience    authorization.JWTAudienceMapper
}

func authorizationFromConfig(cfg *config.Config, logger log.Logger) (serverAuthorization, error) {
	auth := &cfg.Global.Authorization
	authorizer, err := authorizerNamed(auth.Authorizer)
	if err != nil {
		return serverAuthorization{}, err
	}
	if err := checkAuthorization(cfg); err != nil {
		return serverAuthorization{}, err
	}
	claimMapper, err := authorization.GetClaimMapperFromConfig(auth, logger)
	if err != nil {
		return serverAuthorization{}, fmt.Errorf("global.authorization.claimMapper: %w", err)
	}
	audience, err := authorization.GetAudienceMapperFromConfig(auth)
	if err != nil {
		return serverAuthorization{}, fmt.Errorf("global.authorization.audience: %w", err)
	}
	return serverAuthorization{authorizer: authorizer, claimMapper: claimMapper, audience: audience}, nil
}

func authorizerNamed(name string) (authorization.Authorizer, error) {
	switch strings.ToLower(name) {
	case "":
		return authorization.NewNoopAuthorizer(), nil
	case "default":
		return authorization.NewDefaultAuthorizer(), nil
	case AuthorizerName:
		return newRoleAuthorizer(), nil
	}
	return nil, fmt.Errorf("global.authorization.authorizer is %q: use %q (reset, terminate and delete need admin), \"default\" (Temporal's) or nothing (no authorization)", name, AuthorizerName)
}

// checkAuthorization refuses an authorizer without a way to know the caller, and one that would
// refuse the server's own system worker.
func checkAuthorization(cfg *config.Config) error {
	auth := &cfg.Global.Authorization
	if auth.Authorizer == "" {
		return nil
	}
	if !strings.EqualFold(auth.ClaimMapper, "default") {
		return fmt.Errorf("global.authorization.claimMapper is %q while the authorizer %q is on: set it to \"default\" (the JWT claim mapper); without it every caller is a system admin", auth.ClaimMapper, auth.Authorizer)
	}
	if !auth.JWTKeyProvider.HasSourceURIsConfigured() {
		return fmt.Errorf("global.authorization.jwtKeyProvider.keySourceURIs is empty: set it to the identity provider's JWKS URL, or no token can be verified")
	}
	if auth.JWTKeyProvider.RefreshInterval <= 0 {
		return fmt.Errorf("global.authorization.jwtKeyProvider.refreshInterval is %v: set a positive interval (e.g. 1m), or keys the provider rotates, or keys it did not serve when the server started, are never loaded", auth.JWTKeyProvider.RefreshInterval)
	}
	if _, ok := cfg.Services[string(primitives.InternalFrontendService)]; !ok {
		return fmt.Errorf("services.internal-frontend is missing while global.authorization.authorizer is %q: the server's system worker has no token and reaches the frontends through an internal frontend; add that service", auth.Authorizer)
	}
	return nil
}
