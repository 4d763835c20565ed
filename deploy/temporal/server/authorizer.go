package main

import (
	"context"
	"fmt"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/server/common/api"
	"go.temporal.io/server/common/authorization"
)

// AuthorizerName is the value of global.authorization.authorizer that selects roleAuthorizer.
const AuthorizerName = "payflows"

// roleAuthorizer is Temporal's default authorizer (a reader lists and reads, a writer also
// starts, signals, updates and cancels, an admin may do everything) with two changes:
//   - the calls that rewrite or end a workflow's history against its own code (reset,
//     terminate, delete, and batch operations that do them) need the namespace's admin role,
//     where the default authorizer lets a writer make them;
//   - the cluster-wide reads (list namespaces, cluster info, search attributes) are allowed to
//     anyone with a role on some namespace, where the default needs a system-wide role: the
//     Web UI and the CLI make them before anything else.
type roleAuthorizer struct {
	base authorization.Authorizer
}

var _ authorization.Authorizer = (*roleAuthorizer)(nil)

func newRoleAuthorizer() authorization.Authorizer {
	return &roleAuthorizer{base: authorization.NewDefaultAuthorizer()}
}

// adminOnly are the workflow service calls that need the admin role on their namespace.
var adminOnly = map[string]bool{
	api.WorkflowServicePrefix + "ResetWorkflowExecution":     true,
	api.WorkflowServicePrefix + "TerminateWorkflowExecution": true,
	api.WorkflowServicePrefix + "DeleteWorkflowExecution":    true,
}

const startBatchOperation = api.WorkflowServicePrefix + "StartBatchOperation"

func (a *roleAuthorizer) Authorize(ctx context.Context, claims *authorization.Claims, target *authorization.CallTarget) (authorization.Result, error) {
	if what := needsAdmin(target); what != "" && !hasRole(claims, target.Namespace, authorization.RoleAdmin) {
		return authorization.Result{
			Decision: authorization.DecisionDeny,
			Reason: fmt.Sprintf("%s needs the admin role on namespace %q (permission %q); a writer may signal, update or cancel instead",
				what, target.Namespace, target.Namespace+":admin"),
		}, nil
	}
	if isClusterRead(target.APIName) && hasAnyNamespaceRole(claims) {
		return authorization.Result{Decision: authorization.DecisionAllow}, nil
	}
	return a.base.Authorize(ctx, claims, target)
}

// needsAdmin names the call when it needs the admin role ("" when the default rules decide).
func needsAdmin(target *authorization.CallTarget) string {
	if adminOnly[target.APIName] {
		return api.MethodName(target.APIName)
	}
	if target.APIName != startBatchOperation {
		return ""
	}
	req, ok := target.Request.(*workflowservice.StartBatchOperationRequest)
	if !ok {
		// A batch whose operation cannot be read is treated as the strongest one.
		return "StartBatchOperation"
	}
	switch req.GetOperation().(type) {
	case *workflowservice.StartBatchOperationRequest_TerminationOperation:
		return "StartBatchOperation (terminate)"
	case *workflowservice.StartBatchOperationRequest_ResetOperation:
		return "StartBatchOperation (reset)"
	case *workflowservice.StartBatchOperationRequest_DeletionOperation:
		return "StartBatchOperation (delete)"
	}
	return ""
}

func hasRole(claims *authorization.Claims, namespace string, role authorization.Role) bool {
	if claims == nil {
		return false
	}
	return (claims.System|claims.Namespaces[namespace])&role != 0
}

// isClusterRead: a read-only call about the cluster as a whole, not one namespace.
func isClusterRead(apiName string) bool {
	m := api.GetMethodMetadata(apiName)
	return m.Scope == api.ScopeCluster && m.Access == api.AccessReadOnly
}

// readerOrAbove: the roles that may read a namespace (a worker-only role may not).
const readerOrAbove = authorization.RoleReader | authorization.RoleWriter | authorization.RoleAdmin

func hasAnyNamespaceRole(claims *authorization.Claims) bool {
	if claims == nil {
		return false
	}
	for _, role := range claims.Namespaces {
		if role&readerOrAbove != 0 {
			return true
		}
	}
	return false
}
