package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
)

// The checkout, as workflows/checkout/client.ts starts it: checkoutWorkflow keyed checkout:<orderRef>,
// started with the update "hostedPage" in one round trip (update-with-start), then its query
// "state". A checkout that ends before there is a page fails that update with a CheckoutEnded
// failure; bad input fails it with InputRejected (workflows/lib/messages.ts).

type checkoutInput struct {
	OrderRef string `json:"orderRef"`
	// Exact: a decimal string, never a float (docs/money.md).
	SourceAmount   string `json:"sourceAmount"`
	SourceCurrency string `json:"sourceCurrency"`
	DestCurrency   string `json:"destCurrency"`
	Dest           string `json:"dest"`
	RedirectURL    string `json:"redirectUrl,omitempty"`
	UserID         string `json:"userId,omitempty"`
}

type hostedPage struct {
	URL         string `json:"url"`
	Reservation string `json:"reservation"`
}

type checkoutState struct {
	Stage       string  `json:"stage"`
	Reservation *string `json:"reservation"`
	Outcome     *string `json:"outcome"`
}

type checkoutReport struct {
	OrderRef    string `json:"orderRef"`
	WorkflowID  string `json:"workflowId"`
	URL         string `json:"url"`
	Reservation string `json:"reservation"`
	Stage       string `json:"stage"`
}

type refusalReport struct {
	OrderRef   string `json:"orderRef"`
	WorkflowID string `json:"workflowId"`
	// The ApplicationError's type, what a caller branches on.
	Type    string          `json:"type"`
	Message string          `json:"message"`
	Details json.RawMessage `json:"details"`
	// The checkout's result once it ended.
	Outcome string `json:"outcome"`
}

const (
	checkoutEnded = "CheckoutEnded"
	inputRejected = "InputRejected"
)

func (b backend) startCheckout(ctx context.Context, input checkoutInput) (hostedPage, error) {
	var page hostedPage
	id := "checkout:" + input.OrderRef
	raw, err := b.startWithUpdate(ctx, "checkout", client.StartWorkflowOptions{
		ID:        id,
		TaskQueue: b.s.taskQueue,
		// One checkout per order, ever: a second start attaches to the running one.
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, "checkoutWorkflow", input, "hostedPage")
	if err != nil {
		return page, err
	}
	err = received(raw, &page, func(v any) error { return b.sch.updateAnswer("checkout", "checkoutWorkflow", "hostedPage", v) })
	return page, err
}

// startWithUpdate starts workflowType with input (or attaches to the workflow, as opts' policies
// say) and sends it update in the same call; it answers the update's result as received. The input
// is checked against the process's schema first: a message the schema refuses is never sent.
func (b backend) startWithUpdate(ctx context.Context, process string, opts client.StartWorkflowOptions, workflowType string, input any, update string) (json.RawMessage, error) {
	if err := b.sch.input(process, workflowType, input); err != nil {
		return nil, err
	}
	start := b.c.NewWithStartWorkflowOperation(opts, workflowType, input)
	handle, err := b.c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: start,
		UpdateOptions:          client.UpdateWorkflowOptions{UpdateName: update, WaitForStage: client.WorkflowUpdateStageCompleted},
	})
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	err = handle.Get(ctx, &raw)
	return raw, err
}

func (b backend) state(ctx context.Context, workflowID string) (checkoutState, error) {
	var st checkoutState
	answer, err := b.c.QueryWorkflow(ctx, workflowID, "", "state")
	if err != nil {
		return st, fmt.Errorf("query state of %s: %w", workflowID, err)
	}
	err = receivedValue(answer, &st, func(v any) error { return b.sch.queryAnswer("checkout", "checkoutWorkflow", "state", v) })
	return st, err
}

func (b backend) checkout(ctx context.Context, orderRef, dest string) (checkoutReport, error) {
	r := checkoutReport{OrderRef: orderRef, WorkflowID: "checkout:" + orderRef}
	page, err := b.startCheckout(ctx, checkoutInput{
		OrderRef: orderRef, SourceAmount: "50", SourceCurrency: "USD", DestCurrency: "USD", Dest: dest,
		RedirectURL: "https://shop.example/done",
	})
	if err != nil {
		return r, fmt.Errorf("checkout %s: %w", r.WorkflowID, err)
	}
	st, err := b.state(ctx, r.WorkflowID)
	if err != nil {
		return r, err
	}
	r.URL, r.Reservation, r.Stage = page.URL, page.Reservation, st.Stage
	return r, nil
}

// A purchase over the user's daily limit: the checkout refuses it before reserving. The refusal is
// told apart by its failure type, and its details read by that type's schema.
func (b backend) refusedCheckout(ctx context.Context, orderRef, dest, userID, amount string) (refusalReport, error) {
	r := refusalReport{OrderRef: orderRef, WorkflowID: "checkout:" + orderRef}
	_, err := b.startCheckout(ctx, checkoutInput{
		OrderRef: orderRef, SourceAmount: amount, SourceCurrency: "USD", DestCurrency: "USD", Dest: dest, UserID: userID,
	})
	if err == nil {
		return r, fmt.Errorf("checkout %s of %s USD for %s was not refused: expected %s (OVER_LIMIT)", r.WorkflowID, amount, userID, checkoutEnded)
	}
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) {
		return r, fmt.Errorf("checkout %s failed, and not with a refusal: %w", r.WorkflowID, err)
	}
	r.Type, r.Message = appErr.Type(), appErr.Message()
	switch r.Type {
	case checkoutEnded, inputRejected:
		var details any
		if appErr.HasDetails() {
			if err := appErr.Details(&details); err != nil {
				return r, fmt.Errorf("the %s details of %s: %w", r.Type, r.WorkflowID, err)
			}
		}
		if err := b.sch.failureDetails("checkout", "checkoutWorkflow", r.Type, details); err != nil {
			return r, err
		}
		r.Details, _ = json.Marshal(details)
	default:
		return r, fmt.Errorf("checkout %s failed with %s, which this backend does not handle: %w", r.WorkflowID, r.Type, err)
	}
	// The workflow has ended with the refusal as its result.
	var raw json.RawMessage
	if err := b.c.GetWorkflow(ctx, r.WorkflowID, "").Get(ctx, &raw); err != nil {
		return r, fmt.Errorf("the result of %s: %w", r.WorkflowID, err)
	}
	var result struct {
		Outcome string `json:"outcome"`
	}
	if err := received(raw, &result, func(v any) error { return b.sch.result("checkout", "checkoutWorkflow", v) }); err != nil {
		return r, err
	}
	r.Outcome = result.Outcome
	return r, nil
}
