// The Temporal server v1.29.1 with the authorizer of authorizer.go. It takes the stock server's
// command line (--root, --config, --env, --zone; start --service …) and its config files, so it
// runs wherever go.temporal.io/server/cmd/server does; only global.authorization.authorizer
// "payflows" is new.
package main

import (
	"fmt"
	"os"
	"path"
	_ "time/tzdata" // time zones for schedules where the system has none

	"github.com/urfave/cli/v2"
	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/headers"
	"go.temporal.io/server/common/log"
	_ "go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql" // the cluster's store
	"go.temporal.io/server/temporal"
)

func main() {
	if err := app().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func app() *cli.App {
	return &cli.App{
		Name:    "temporal-server",
		Usage:   "the Temporal server with the payflows authorizer",
		Version: headers.ServerVersion,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "root", Aliases: []string{"r"}, Value: ".", Usage: "root directory", EnvVars: []string{config.EnvKeyRoot}},
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Value: "config", Usage: "config folder, relative to --root", EnvVars: []string{config.EnvKeyConfigDir}},
			&cli.StringFlag{Name: "env", Aliases: []string{"e"}, Value: "development", Usage: "the config file's name (<env>.yaml)", EnvVars: []string{config.EnvKeyEnvironment}},
			&cli.StringFlag{Name: "zone", Aliases: []string{"az"}, Usage: "availability zone", EnvVars: []string{config.EnvKeyAvailabilityZone}},
		},
		Commands: []*cli.Command{{
			Name:  "start",
			Usage: "start the server's services",
			Flags: []cli.Flag{
				&cli.StringSliceFlag{Name: "service", Aliases: []string{"svc"}, Value: cli.NewStringSlice(temporal.DefaultServices...), Usage: "a service to start (repeat for several)"},
			},
			Action: start,
		}},
	}
}

func start(c *cli.Context) error {
	if c.Args().Len() > 0 {
		return fmt.Errorf("start takes no arguments (got %q): name services with --service", c.Args().Slice())
	}
	cfg, err := config.LoadConfig(c.String("env"), path.Join(c.String("root"), c.String("config")), c.String("zone"))
	if err != nil {
		return fmt.Errorf("loading the config from %s: %w", path.Join(c.String("root"), c.String("config")), err)
	}
	logger := log.NewZapLogger(log.BuildZapLogger(cfg.Log))
	auth, err := authorizationFromConfig(cfg, logger)
	if err != nil {
		return err
	}
	var dynamicConfig dynamicconfig.Client = dynamicconfig.NewNoopClient()
	if cfg.DynamicConfigClient != nil {
		dynamicConfig, err = dynamicconfig.NewFileBasedClient(cfg.DynamicConfigClient, logger, temporal.InterruptCh())
		if err != nil {
			return fmt.Errorf("dynamicConfigClient: %w", err)
		}
	}
	server, err := temporal.NewServer(
		temporal.ForServices(c.StringSlice("service")),
		temporal.WithConfig(cfg),
		temporal.WithDynamicConfigClient(dynamicConfig),
		temporal.WithLogger(logger),
		temporal.InterruptOn(temporal.InterruptCh()),
		temporal.WithAuthorizer(auth.authorizer),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return auth.claimMapper }),
		temporal.WithAudienceGetter(func(*config.Config) authorization.JWTAudienceMapper { return auth.audience }),
	)
	if err != nil {
		return fmt.Errorf("creating the server: %w", err)
	}
	return server.Start()
}
