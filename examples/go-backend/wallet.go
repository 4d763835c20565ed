package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
)

// The wallet, as workflows/wallet/client.ts opens and reads it: openWalletWorkflow keyed
// open-wallet:<name>, then the query "wallet" of the wallet's own workflow.

type backend struct {
	c   client.Client
	s   settings
	sch *schemas
}

type openWalletInput struct {
	Name string `json:"name"`
	// How often the wallet's workflow polls the provider for a callback that was lost.
	PollIntervalMs int `json:"pollIntervalMs"`
}

type openWalletResult struct {
	WalletID         string `json:"walletId"`
	Srn              string `json:"srn"`
	WalletWorkflowID string `json:"walletWorkflowId"`
}

type balance struct {
	Confirmed string `json:"confirmed"`
	Pending   string `json:"pending"`
}

type walletView struct {
	WalletID string             `json:"walletId"`
	Balances map[string]balance `json:"balances"`
}

type walletReport struct {
	Name       string             `json:"name"`
	WalletID   string             `json:"walletId"`
	Srn        string             `json:"srn"`
	WorkflowID string             `json:"workflowId"`
	Deposit    map[string]string  `json:"deposit"`
	Balances   map[string]balance `json:"balances"`
}

func (b backend) walletAfterDeposit(ctx context.Context, name, currency, amount string) (walletReport, error) {
	var r walletReport
	want, ok := new(big.Rat).SetString(amount)
	if !ok {
		return r, fmt.Errorf("-deposit %q is not a decimal string such as 0.12345678", amount)
	}
	input := openWalletInput{Name: name, PollIntervalMs: 5_000}
	// Checked before anything starts: a message the schema refuses is never sent.
	if err := b.sch.input("wallet", "openWalletWorkflow", input); err != nil {
		return r, err
	}
	run, err := b.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:        "open-wallet:" + name,
		TaskQueue: b.s.taskQueue,
		// A second open of the same name attaches to the first; only a failed attempt starts again.
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
	}, "openWalletWorkflow", input)
	if err != nil {
		return r, fmt.Errorf("starting openWalletWorkflow open-wallet:%s: %w", name, err)
	}
	var raw json.RawMessage
	if err := run.Get(ctx, &raw); err != nil {
		return r, fmt.Errorf("opening the wallet open-wallet:%s: %w", name, err)
	}
	var opened openWalletResult
	if err := received(raw, &opened, func(v any) error { return b.sch.result("wallet", "openWalletWorkflow", v) }); err != nil {
		return r, err
	}
	if err := b.deposit(ctx, opened.WalletID, currency, amount); err != nil {
		return r, err
	}
	// The deposit's callback reaches the wallet's workflow through the ingress (or its next poll).
	deadline := time.Now().Add(90 * time.Second)
	for {
		var view walletView
		answer, err := b.c.QueryWorkflow(ctx, opened.WalletWorkflowID, "", "wallet")
		if err != nil {
			return r, fmt.Errorf("query wallet of %s: %w", opened.WalletWorkflowID, err)
		}
		if err := receivedValue(answer, &view, func(v any) error {
			return b.sch.queryAnswer("wallet", "walletWorkflow", "wallet", v)
		}); err != nil {
			return r, err
		}
		got, ok := new(big.Rat).SetString(view.Balances[currency].Confirmed)
		if ok && got.Cmp(want) == 0 {
			return walletReport{
				Name: name, WalletID: opened.WalletID, Srn: opened.Srn, WorkflowID: opened.WalletWorkflowID,
				Deposit: map[string]string{"currency": currency, "amount": amount}, Balances: view.Balances,
			}, nil
		}
		if time.Now().After(deadline) {
			return r, fmt.Errorf("the wallet %s shows %s %v after a confirmed deposit of %s, 90 s later", opened.WalletWorkflowID, currency, view.Balances[currency], amount)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// The sandbox's operator route plays the blockchain: a confirmed deposit to the wallet's address.
func (b backend) deposit(ctx context.Context, walletID, currency, amount string) error {
	body, _ := json.Marshal(map[string]any{"currency": currency, "amount": amount, "confirmed": true})
	url := fmt.Sprintf("%s/sandbox/wallets/%s/deposits", b.s.sandboxURL, walletID)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("the sandbox's deposit (POST %s): %w", url, err)
	}
	defer res.Body.Close()
	text, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("the sandbox refused the deposit (POST %s): %d %s", url, res.StatusCode, text)
	}
	return nil
}

// received checks a JSON answer against its schema, then reads it into out.
func received(raw json.RawMessage, out any, check func(any) error) error {
	if err := check(raw); err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

func receivedValue(v converter.EncodedValue, out any, check func(any) error) error {
	var raw json.RawMessage
	if err := v.Get(&raw); err != nil {
		return err
	}
	return received(raw, out, check)
}
