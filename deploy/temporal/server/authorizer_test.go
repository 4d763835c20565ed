package main

import (
	"context"
	"strings"
	"testing"

	batchpb "go.temporal.io/api/batch/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/server/common/api"
	"go.temporal.io/server/common/authorization"
)

const ns = "default"

// The claims Temporal's default JWT claim mapper makes of a token's permissions ("default:read" etc.).
var (
	reader   = &authorization.Claims{Subject: "reader", Namespaces: map[string]authorization.Role{ns: authorization.RoleReader}}
	operator = &authorization.Claims{Subject: "operator", Namespaces: map[string]authorization.Role{ns: authorization.RoleWriter}}
	admin    = &authorization.Claims{Subject: "admin", Namespaces: map[string]authorization.Role{ns: authorization.RoleAdmin}}
	// An admin of another namespace only.
	otherAdmin = &authorization.Claims{Subject: "other", Namespaces: map[string]authorization.Role{"other": authorization.RoleAdmin}}
	// What the internal frontend's claim mapper gives the server's own system worker.
	system = &authorization.Claims{System: authorization.RoleAdmin}
	// A token with no permission this server knows ("default:decode" is ignored by the claim mapper).
	nobody = &authorization.Claims{Subject: "nobody"}
)

func decide(t *testing.T, claims *authorization.Claims, method string, req any) authorization.Result {
	t.Helper()
	target := &authorization.CallTarget{APIName: api.WorkflowServicePrefix + method, Namespace: ns, Request: req}
	if strings.HasPrefix(method, "/") {
		target.APIName = method
	}
	result, err := newRoleAuthorizer().Authorize(context.Background(), claims, target)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return result
}

func expect(t *testing.T, who string, claims *authorization.Claims, allowed map[string]bool) {
	t.Helper()
	for method, allow := range allowed {
		got := decide(t, claims, method, nil).Decision == authorization.DecisionAllow
		if got != allow {
			t.Errorf("%s calling %s: allowed %v, want %v", who, method, got, allow)
		}
	}
}

func TestReaderListsAndReadsOnly(t *testing.T) {
	expect(t, "reader", reader, map[string]bool{
		"ListWorkflowExecutions":         true,
		"DescribeWorkflowExecution":      true,
		"GetWorkflowExecutionHistory":    true,
		"QueryWorkflow":                  true,
		"DescribeNamespace":              true,
		"SignalWorkflowExecution":        false,
		"UpdateWorkflowExecution":        false,
		"StartWorkflowExecution":         false,
		"RequestCancelWorkflowExecution": false,
		"ResetWorkflowExecution":         false,
		"TerminateWorkflowExecution":     false,
		"DeleteWorkflowExecution":        false,
	})
}

func TestOperatorSignalsAndUpdatesButNeverUndoes(t *testing.T) {
	expect(t, "operator", operator, map[string]bool{
		"ListWorkflowExecutions":           true,
		"SignalWorkflowExecution":          true,
		"SignalWithStartWorkflowExecution": true,
		"UpdateWorkflowExecution":          true,
		"StartWorkflowExecution":           true,
		"RequestCancelWorkflowExecution":   true,
		"PollWorkflowTaskQueue":            true,
		"ResetWorkflowExecution":           false,
		"TerminateWorkflowExecution":       false,
		"DeleteWorkflowExecution":          false,
		"UpdateNamespace":                  false,
	})
}

func TestAdminResetsTerminatesAndDeletes(t *testing.T) {
	expect(t, "admin", admin, map[string]bool{
		"ResetWorkflowExecution":     true,
		"TerminateWorkflowExecution": true,
		"DeleteWorkflowExecution":    true,
		"SignalWorkflowExecution":    true,
		"ListWorkflowExecutions":     true,
		"UpdateNamespace":            true,
	})
}

func TestRolesHoldOnTheirNamespaceOnly(t *testing.T) {
	expect(t, "an admin of another namespace", otherAdmin, map[string]bool{
		"ListWorkflowExecutions":     false,
		"TerminateWorkflowExecution": false,
	})
}

func TestSystemWorkerMayDoEverything(t *testing.T) {
	expect(t, "the system worker", system, map[string]bool{
		"TerminateWorkflowExecution": true,
		"DeleteWorkflowExecution":    true,
		"StartBatchOperation":        true,
		"UpdateNamespace":            true,
	})
}

func TestNoTokenOrNoRoleIsRefused(t *testing.T) {
	for who, claims := range map[string]*authorization.Claims{"no token": nil, "a token without roles": nobody} {
		expect(t, who, claims, map[string]bool{
			"ListWorkflowExecutions":     false,
			"ListNamespaces":             false,
			"GetClusterInfo":             false,
			"TerminateWorkflowExecution": false,
		})
	}
}

func TestHealthChecksAreOpen(t *testing.T) {
	expect(t, "no token", nil, map[string]bool{
		"GetSystemInfo":                true,
		"/grpc.health.v1.Health/Check": true,
	})
}

func TestClusterReadsNeedARoleOnSomeNamespace(t *testing.T) {
	expect(t, "reader", reader, map[string]bool{
		"ListNamespaces":      true,
		"GetClusterInfo":      true,
		"GetSearchAttributes": true,
	})
	// Cluster-wide writes and admin calls stay with system roles.
	if decide(t, admin, api.OperatorServicePrefix+"ListClusters", nil).Decision == authorization.DecisionAllow {
		t.Error("a namespace admin listed the clusters (an operator service admin call)")
	}
}

func batch(op any) *workflowservice.StartBatchOperationRequest {
	req := &workflowservice.StartBatchOperationRequest{Namespace: ns, VisibilityQuery: "WorkflowType='wallet'"}
	switch o := op.(type) {
	case *batchpb.BatchOperationTermination:
		req.Operation = &workflowservice.StartBatchOperationRequest_TerminationOperation{TerminationOperation: o}
	case *batchpb.BatchOperationReset:
		req.Operation = &workflowservice.StartBatchOperationRequest_ResetOperation{ResetOperation: o}
	case *batchpb.BatchOperationDeletion:
		req.Operation = &workflowservice.StartBatchOperationRequest_DeletionOperation{DeletionOperation: o}
	case *batchpb.BatchOperationSignal:
		req.Operation = &workflowservice.StartBatchOperationRequest_SignalOperation{SignalOperation: o}
	case *batchpb.BatchOperationCancellation:
		req.Operation = &workflowservice.StartBatchOperationRequest_CancellationOperation{CancellationOperation: o}
	}
	return req
}

func TestBatchesThatUndoNeedAdmin(t *testing.T) {
	undoing := map[string]any{
		"terminate": &batchpb.BatchOperationTermination{},
		"reset":     &batchpb.BatchOperationReset{},
		"delete":    &batchpb.BatchOperationDeletion{},
	}
	for name, op := range undoing {
		if decide(t, operator, "StartBatchOperation", batch(op)).Decision == authorization.DecisionAllow {
			t.Errorf("an operator started a batch %s", name)
		}
		if decide(t, admin, "StartBatchOperation", batch(op)).Decision != authorization.DecisionAllow {
			t.Errorf("an admin was refused a batch %s", name)
		}
	}
	for name, op := range map[string]any{"signal": &batchpb.BatchOperationSignal{}, "cancel": &batchpb.BatchOperationCancellation{}} {
		if decide(t, operator, "StartBatchOperation", batch(op)).Decision != authorization.DecisionAllow {
			t.Errorf("an operator was refused a batch %s", name)
		}
		if decide(t, reader, "StartBatchOperation", batch(op)).Decision == authorization.DecisionAllow {
			t.Errorf("a reader started a batch %s", name)
		}
	}
	// A batch whose request is not the one expected counts as the strongest.
	if decide(t, operator, "StartBatchOperation", nil).Decision == authorization.DecisionAllow {
		t.Error("an operator started a batch whose operation could not be read")
	}
}

func TestRefusalSaysWhichCallAndRole(t *testing.T) {
	result := decide(t, operator, "TerminateWorkflowExecution", nil)
	want := `TerminateWorkflowExecution needs the admin role on namespace "default" (permission "default:admin")`
	if result.Decision != authorization.DecisionDeny || !strings.Contains(result.Reason, want) {
		t.Errorf("refusal %+v, want a denial whose reason says %q", result, want)
	}
}
