// Command compose-config loads a Compose file as `docker compose config` does (compose-go, the
// library the Compose CLI is built on): variables interpolated from an env file, the file
// validated against the Compose specification's schema, and the project printed as YAML. It
// lets the tests prove docker-compose.yml valid on a machine with no Docker engine.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: compose-config <compose file> <env file>")
		os.Exit(64)
	}
	file, envFile := os.Args[1], os.Args[2]
	options, err := cli.NewProjectOptions(
		[]string{file},
		cli.WithWorkingDirectory(filepath.Dir(file)),
		cli.WithEnvFiles(envFile),
		cli.WithDotEnv,
		cli.WithName("payflows"),
	)
	if err == nil {
		var out []byte
		project, loadErr := options.LoadProject(context.Background())
		if err = loadErr; err == nil {
			if out, err = project.MarshalYAML(); err == nil {
				_, err = os.Stdout.Write(out)
			}
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", file, err)
		os.Exit(1)
	}
}
