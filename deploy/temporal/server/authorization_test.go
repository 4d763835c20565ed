package main

import (
	"strings"
	"testing"
	"time"

	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/log"
)

// A config with the authorization this repository deploys (deploy/temporal/production.yaml).
func configured() *config.Config {
	return &config.Config{
		Global: config.Global{Authorization: config.Authorization{
			Authorizer:           AuthorizerName,
			ClaimMapper:          "default",
			PermissionsClaimName: "permissions",
			JWTKeyProvider:       config.JWTKeyProvider{KeySourceURIs: []string{"http://127.0.0.1:1/jwks"}, RefreshInterval: time.Minute},
		}},
		Services: map[string]config.Service{"frontend": {}, "internal-frontend": {}},
	}
}

func TestConfiguredAuthorizationStarts(t *testing.T) {
	auth, err := authorizationFromConfig(configured(), log.NewNoopLogger())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := auth.authorizer.(*roleAuthorizer); !ok {
		t.Errorf("authorizer %q gave %T", AuthorizerName, auth.authorizer)
	}
}

func TestNoAuthorizerIsTheStockDefault(t *testing.T) {
	auth, err := authorizationFromConfig(&config.Config{}, log.NewNoopLogger())
	if err != nil {
		t.Fatal(err)
	}
	if !authorization.IsNoopAuthorizer(auth.authorizer) {
		t.Errorf("no authorizer configured gave %T", auth.authorizer)
	}
}

func TestBadAuthorizationRefusesNamingTheSetting(t *testing.T) {
	cases := map[string]struct {
		change func(*config.Config)
		want   string
	}{
		"unknown authorizer":   {func(c *config.Config) { c.Global.Authorization.Authorizer = "roles" }, "global.authorization.authorizer"},
		"no claim mapper":      {func(c *config.Config) { c.Global.Authorization.ClaimMapper = "" }, "global.authorization.claimMapper"},
		"no keys":              {func(c *config.Config) { c.Global.Authorization.JWTKeyProvider.KeySourceURIs = []string{" "} }, "global.authorization.jwtKeyProvider.keySourceURIs"},
		"no refresh":           {func(c *config.Config) { c.Global.Authorization.JWTKeyProvider.RefreshInterval = 0 }, "global.authorization.jwtKeyProvider.refreshInterval"},
		"no internal frontend": {func(c *config.Config) { delete(c.Services, "internal-frontend") }, "services.internal-frontend"},
	}
	for name, tc := range cases {
		cfg := configured()
		tc.change(cfg)
		_, err := authorizationFromConfig(cfg, log.NewNoopLogger())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %s", name, err, tc.want)
		}
	}
}
