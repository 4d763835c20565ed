// A Go backend of a payflows deployment: it opens a wallet and reads its balances after a
// deposit, starts a checkout and reads its status, and handles a checkout's refusal by its failure
// type, checking every message against schemas/messages/*.json. It prints what it did as one JSON
// report on stdout; anything unexpected ends it with a message on stderr and exit status 1.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"
)

type report struct {
	Wallet    walletReport   `json:"wallet"`
	Checkout  checkoutReport `json:"checkout"`
	Refusal   refusalReport  `json:"refusal"`
	Validated []string       `json:"validated"`
}

func main() {
	walletName := flag.String("wallet-name", "", "your unique name for the wallet's user (opens it, or finds the one opened under it)")
	orderRef := flag.String("order-ref", "", "your reference of the order to check out; the refused one is <order-ref>-over")
	currency := flag.String("currency", "BTC", "the deposit's currency")
	amount := flag.String("deposit", "0.12345678", "the deposit the sandbox makes, a decimal string")
	limitedUser := flag.String("limited-user", "", "a provider user (US_…) with standard limits, for the checkout that is refused")
	overAmount := flag.String("over-amount", "600", "an amount over that user's daily limit, a decimal string")
	flag.Parse()
	if *walletName == "" || *orderRef == "" || *limitedUser == "" {
		fail(fmt.Errorf("-wallet-name, -order-ref and -limited-user are required (see -help)"))
	}
	s, err := loadSettings()
	if err != nil {
		fail(err)
	}
	sch, err := loadSchemas(s.schemasDir, "wallet", "checkout")
	if err != nil {
		fail(err)
	}
	c, err := connect(s)
	if err != nil {
		fail(fmt.Errorf("connecting to Temporal at %s (namespace %s): %w", s.address, s.namespace, err))
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	b := backend{c: c, s: s, sch: sch}
	var out report
	if out.Wallet, err = b.walletAfterDeposit(ctx, *walletName, *currency, *amount); err != nil {
		fail(err)
	}
	if out.Checkout, err = b.checkout(ctx, *orderRef, out.Wallet.Srn); err != nil {
		fail(err)
	}
	if out.Refusal, err = b.refusedCheckout(ctx, *orderRef+"-over", out.Wallet.Srn, *limitedUser, *overAmount); err != nil {
		fail(err)
	}
	out.Validated = sch.checked
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "go-backend: %v\n", err)
	os.Exit(1)
}
