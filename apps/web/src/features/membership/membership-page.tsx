import { useEffect, useId, useState } from 'react';
import {
  Alert,
  Anchor,
  Checkbox,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import {
  checkoutOutcome,
  planName,
  planNames,
  planRank,
  plans,
  reportKindNames,
  reportKinds,
  type PlanName,
} from '@dental/contracts';
import { useMessageModal } from '#web/components/message-modal';
import { paths } from '#web/config/paths';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { accountQuery, useAccount } from '#web/lib/account';
import { currentPlanQuery, planEndText, useCurrentPlan } from '#web/lib/current-plan';
import { leftThisYear, useReports } from '#web/lib/reports';
import { checkoutAddress, useChoosePlan } from './api/choose-plan';
import { PlanCard } from './components/plan-card';
import { canChoose, membershipTerms } from './plan-rows';

export const membershipTitle = 'Choose your plan to start enjoying the benefits!';
const alertTitle = 'Membership';

const outcomeTexts = {
  paid: 'Thank you! Your payment was received and your plan is now active.',
  cancelled: 'The payment was cancelled. No card was charged and your plan is unchanged.',
} as const;

/** The plan the browser left for checkout with, for this tab's session only: the payment
 *  provider's webhook may complete the payment after the browser is back, so the return waits
 *  for the account to show that plan (docs/decisions/topic-card-lock.md#after-a-payment). */
export const checkoutPlanKey = 'dental.checkout-plan';
export const completionPollMs = 2000;
const completionPolls = 15;

/** After a paid checkout, the account read again every 2 seconds (30 seconds at most) until it
 *  holds the plan bought; then the plan and everything shown from it are read again. */
function useAwaitBoughtPlan(paid: boolean) {
  const queryClient = useQueryClient();
  const bought = paid
    ? planName.safeParse(sessionStorage.getItem(checkoutPlanKey)).data
    : undefined;
  const reached = (level: PlanName | undefined) =>
    bought !== undefined && level !== undefined && planRank(level) >= planRank(bought);
  const account = useQuery({
    ...accountQuery,
    enabled: bought !== undefined,
    refetchInterval: (query) =>
      reached(query.state.data?.customer_level) || query.state.dataUpdateCount > completionPolls
        ? false
        : completionPollMs,
  });
  const done = reached(account.data?.customer_level);
  useEffect(() => {
    if (!done) return;
    sessionStorage.removeItem(checkoutPlanKey);
    void queryClient.invalidateQueries({ queryKey: currentPlanQuery.queryKey });
  }, [done, queryClient]);
}

/** The result of a checkout the browser came back from (`?payment=paid|cancelled`). */
function CheckoutResult() {
  const [searchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const outcome = checkoutOutcome.safeParse(searchParams.get('payment'));
  const result = outcome.success ? outcome.data : null;
  useEffect(() => {
    // The payment changed the level, points and term: read them again.
    if (result !== null) {
      void queryClient.invalidateQueries({ queryKey: accountQuery.queryKey });
      void queryClient.invalidateQueries({ queryKey: currentPlanQuery.queryKey });
    }
  }, [result, queryClient]);
  useAwaitBoughtPlan(result === 'paid');
  if (result === null) return null;
  return (
    <Alert color={result === 'paid' ? 'green' : 'gray'} variant="light" role="status">
      {outcomeTexts[result]}
    </Alert>
  );
}

/** What is left of the plan's reports this calendar year, with the way to the Reports screen. */
function ReportsLeft() {
  const reports = useReports();
  if (reports.data === undefined) return null;
  const { remaining } = reports.data;
  return (
    <Text>
      {reportKinds
        .map((kind) => `${reportKindNames[kind]}s: ${leftThisYear(remaining[kind])}.`)
        .join(' ')}{' '}
      <Anchor component={Link} to={paths.reports}>
        Open Reports
      </Anchor>
    </Text>
  );
}

/** Membership (docs/product/membership.md#choosing-a-plan): choose a plan, then pay at full-page
 *  checkout. */
export default function MembershipPage() {
  useDocumentTitle('Membership');
  const account = useAccount();
  const choosePlan = useChoosePlan();
  const [agreed, setAgreed] = useState(false);
  const popup = useMessageModal();
  const [chosen, setChosen] = useState<PlanName | null>(null);
  const notesId = useId();
  const current = useCurrentPlan();

  useEffect(() => {
    // docs/product/membership.md#choosing-a-plan: an account that cannot be fetched is reported to
    // the console only.
    if (account.error)
      console.error('Membership: the account could not be fetched.', account.error);
  }, [account.error]);

  if (account.isPending && account.fetchStatus !== 'idle') return <PageSpinner />;

  const level = account.data?.customer_level;
  const tell = (text: string, onClosed?: () => void) => {
    popup.show({ title: alertTitle, text }, onClosed);
  };

  const choose = (plan: PlanName) => {
    if (!agreed) {
      tell('Please agree to the terms and conditions before choosing a plan.');
      return;
    }
    if (account.data === undefined) {
      tell('Unable to retrieve account data. Please try again later.');
      return;
    }
    setChosen(plan);
    choosePlan.mutate(
      { memberId: account.data.id, selectedPlan: plan },
      {
        onSuccess: ({ id }) => {
          // After the alert the browser leaves for the checkout page (a full-page navigation).
          tell(`Plan "${plan}" has been successfully chosen!`, () => {
            sessionStorage.setItem(checkoutPlanKey, plan);
            window.location.assign(checkoutAddress(id));
          });
        },
        onError: (error) => {
          console.error('Membership: choosing the plan failed.', error);
          setChosen(null);
          tell('An error occurred while choosing the plan. Please try again.');
        },
      },
    );
  };

  return (
    <Stack gap="lg">
      <Title order={1}>{membershipTitle}</Title>
      <CheckoutResult />
      {current.data && (
        <Text fw={600}>{`Your plan: ${current.data.plan}. ${planEndText(current.data)}.`}</Text>
      )}
      <ReportsLeft />
      {/* The agreement comes before the plans, where the choice is made: on a phone the cards
          stack and a box after them sat far below the first Choose Plan button. */}
      <Paper component="section" withBorder p="md" aria-labelledby={notesId}>
        <Title order={2} size="h3" mb="sm" id={notesId}>
          NOTES
        </Title>
        <Checkbox
          label="I agree to the following:"
          checked={agreed}
          onChange={(event) => {
            setAgreed(event.currentTarget.checked);
          }}
        />
        <List mt="sm" spacing={4}>
          {membershipTerms.map((term) => (
            <List.Item key={term}>{term}</List.Item>
          ))}
        </List>
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {planNames.map((name) => (
          <PlanCard
            key={name}
            plan={plans[name]}
            current={current.data?.plan === name ? current.data : undefined}
            disabled={!canChoose(name, level)}
            loading={chosen === name}
            onChoose={() => {
              choose(name);
            }}
          />
        ))}
      </SimpleGrid>
      {popup.dialog}
    </Stack>
  );
}
