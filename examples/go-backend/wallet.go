package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
)

// The wallet, as workflows/wallet/client.ts opens and reads it: openWalletWorkflow keyed
// open-wallet:<name>, started by an update-with-start of "opened" and followed in that same
// workflow (follower "this-workflow"), then read by its query "wallet".

type backend struct {
	c   client.Client
	s   settings
	sch *schemas
}

type openWalletInput struct {
	Name string `json:"name"`
	// "this-workflow": the workflow that opens the wallet follows it, and answers "opened" once the
	// provider has created it. Without it, the workflow starts a second one as its follower.
	Follower string `json:"follower"`
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
	opened, err := b.openWallet(ctx, openWalletInput{Name: name, Follower: "this-workflow", PollIntervalMs: 5_000})
	if err != nil {
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
			return b.sch.queryAnswer("wallet", followerType(opened.WalletWorkflowID), "wallet", v)
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

// openWallet opens the wallet for input.Name, or finds the one opened under that name, and answers
// once the provider has created it: one workflow for the wallet's whole life.
func (b backend) openWallet(ctx context.Context, input openWalletInput) (openWalletResult, error) {
	var opened openWalletResult
	id := "open-wallet:" + input.Name
	raw, err := b.startWithUpdate(ctx, "wallet", client.StartWorkflowOptions{
		ID:        id,
		TaskQueue: b.s.taskQueue,
		// A second open of the same name attaches to the first; only a failed attempt starts again.
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
	}, "openWalletWorkflow", input, "opened")
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		// The name was opened by a workflow that completed once it started a follower of its own
		// (opened without "this-workflow"): its result says what it opened.
		return b.openedBefore(ctx, id)
	}
	if err != nil {
		return opened, fmt.Errorf("opening the wallet %s: %w", id, err)
	}
	err = received(raw, &opened, func(v any) error { return b.sch.updateAnswer("wallet", "openWalletWorkflow", "opened", v) })
	return opened, err
}

// followerType is the type of the workflow that follows the wallet: the opening itself, or the
// follower wallet:<walletId> that an opening without "this-workflow" started.
func followerType(workflowID string) string {
	if strings.HasPrefix(workflowID, "wallet:") {
		return "walletWorkflow"
	}
	return "openWalletWorkflow"
}

// openedBefore reads what a completed opening of the wallet answered as its result.
func (b backend) openedBefore(ctx context.Context, id string) (openWalletResult, error) {
	var opened openWalletResult
	var raw json.RawMessage
	if err := b.c.GetWorkflow(ctx, id, "").Get(ctx, &raw); err != nil {
		return opened, fmt.Errorf("reading the earlier opening %s: %w", id, err)
	}
	err := received(raw, &opened, func(v any) error { return b.sch.result("wallet", "openWalletWorkflow", v) })
	return opened, err
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
