import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { membershipPaths } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, problemResponse, stubFetch, testAccount, type Handler } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';
import { checkoutPlanKey, completionPollMs } from './membership-page';

const paymentId = '3f2b8a56-1c0d-4e6a-9b1f-5a7c2d9e8f01';
const choosePlanKey = `POST ${membershipPaths.choosePlan}`;

async function openMembership(handlers: Record<string, Handler> = {}, path = '/membership') {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({ 'GET /api/account/': () => json(testAccount), ...handlers });
  const view = renderRoute(path);
  await screen.findByRole('heading', {
    name: 'Choose your plan to start enjoying the benefits!',
    level: 1,
  });
  return { api, ...view };
}

const planCard = (name: string) => within(screen.getByRole('region', { name }));
const chooseButton = (name: string) => screen.getByRole('button', { name: `Choose Plan ${name}` });

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('Membership', () => {
  it('shows the three plans with their rows and the NOTES box', async () => {
    await openMembership();
    expect(planCard('Gold').getByRole('rowheader', { name: 'Price' })).toBeInTheDocument();
    expect(planCard('Gold').getByText('$29.99/Year')).toBeInTheDocument();
    expect(planCard('Gold').getByText('3,000')).toBeInTheDocument();
    expect(planCard('Platinum').getByText('10GB')).toBeInTheDocument();
    expect(planCard('Silver').getByText('10 times/year')).toBeInTheDocument();
    expect(planCard('Silver').getByText('1 review/year')).toBeInTheDocument();
    expect(planCard('Gold').getByText('5 reviews/year')).toBeInTheDocument();
    expect(planCard('Platinum').getByText('10/year')).toBeInTheDocument();
    expect(planCard('Silver').getAllByText('15/year')).toHaveLength(1);
    const notes = within(screen.getByRole('region', { name: 'NOTES' }));
    expect(notes.getByRole('checkbox', { name: 'I agree to the following:' })).not.toBeChecked();
    expect(notes.getAllByRole('listitem')).toHaveLength(4);
  });

  it('disables Silver and plans at or below the member’s level', async () => {
    await openMembership({
      'GET /api/account/': () => json({ ...testAccount, customer_level: 'Gold' }),
    });
    await vi.waitFor(() => {
      expect(chooseButton('Platinum')).toBeEnabled();
    });
    expect(chooseButton('Silver')).toBeDisabled();
    expect(chooseButton('Gold')).toBeDisabled();
  });

  it('disables every plan when the account cannot be fetched, logging to the console only', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await openMembership({
      'GET /api/account/': () => problemResponse(500, 'Something went wrong on our side.'),
    });
    await vi.waitFor(() => {
      expect(log).toHaveBeenCalled();
    });
    for (const name of ['Silver', 'Gold', 'Platinum']) expect(chooseButton(name)).toBeDisabled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks for the agreement first and sends nothing without it', async () => {
    const { api, user } = await openMembership();
    await vi.waitFor(() => {
      expect(chooseButton('Gold')).toBeEnabled();
    });
    await user.click(chooseButton('Gold'));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Please agree to the terms and conditions before choosing a plan.'),
    ).toBeInTheDocument();
    expect(api.to(choosePlanKey)).toHaveLength(0);
  });

  it('chooses the plan, tells so and then opens the checkout page', async () => {
    const assign = vi.fn();
    const { href, origin, pathname, search } = window.location;
    vi.stubGlobal('location', { href, origin, pathname, search, assign });
    const { api, user } = await openMembership({
      [choosePlanKey]: () => json({ id: paymentId }),
    });
    await vi.waitFor(() => {
      expect(chooseButton('Gold')).toBeEnabled();
    });
    await user.click(screen.getByRole('checkbox', { name: 'I agree to the following:' }));
    await user.click(chooseButton('Gold'));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Plan "Gold" has been successfully chosen!'),
    ).toBeInTheDocument();
    expect(api.to(choosePlanKey).map((r) => r.body)).toEqual([
      { memberId: testAccount.id, selectedPlan: 'Gold' },
    ]);
    expect(assign).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(assign).toHaveBeenCalledWith(`/api/membership-payment/checkout?payment_id=${paymentId}`);
  });

  it('tells when choosing fails and stays on the page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = await openMembership({
      [choosePlanKey]: () => problemResponse(422, 'You are already a Gold member.'),
    });
    await vi.waitFor(() => {
      expect(chooseButton('Platinum')).toBeEnabled();
    });
    await user.click(screen.getByRole('checkbox', { name: 'I agree to the following:' }));
    await user.click(chooseButton('Platinum'));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('An error occurred while choosing the plan. Please try again.'),
    ).toBeInTheDocument();
    expect(chooseButton('Platinum')).toBeEnabled();
  });

  it('waits for a paid plan the provider completes after the browser is back', async () => {
    sessionStorage.setItem(checkoutPlanKey, 'Gold');
    let completed = false;
    const level = () => (completed ? 'Gold' : 'Silver');
    const { api } = await openMembership(
      {
        'GET /api/account/': () => json({ ...testAccount, customer_level: level() }),
        [`GET ${membershipPaths.current}`]: () =>
          json({ plan: level(), ends_at: completed ? '2027-11-29T00:00:00Z' : null }),
      },
      '/membership?payment=paid',
    );
    expect(await screen.findByText('Your plan: Silver. Free, no end date.')).toBeInTheDocument();
    // The provider's webhook completes the payment a moment later.
    completed = true;
    expect(
      await screen.findByText(/^Your plan: Gold\. Ends on /, undefined, {
        timeout: completionPollMs * 3,
      }),
    ).toBeInTheDocument();
    expect(sessionStorage.getItem(checkoutPlanKey)).toBeNull();
    const reads = api.to('GET /api/account/').length;
    await new Promise((resolve) => setTimeout(resolve, completionPollMs + 500));
    expect(api.to('GET /api/account/')).toHaveLength(reads);
  });

  it('shows the result of a checkout the browser came back from', async () => {
    await openMembership({}, '/membership?payment=cancelled');
    expect(screen.getByRole('status')).toHaveTextContent(
      'The payment was cancelled. No card was charged and your plan is unchanged.',
    );
  });
});
