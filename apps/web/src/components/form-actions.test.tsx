import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { useLeave } from '#web/lib/use-leave';
import { FormActions } from './form-actions';

function renderForm(props: Partial<Parameters<typeof FormActions>[0]> = {}) {
  const onSubmit = vi.fn((event: React.SyntheticEvent) => {
    event.preventDefault();
  });
  const onCancel = vi.fn();
  render(
    <MantineProvider>
      <form onSubmit={onSubmit}>
        <FormActions submitLabel="Save" onCancel={onCancel} {...props} />
      </form>
    </MantineProvider>,
  );
  return { onSubmit, onCancel, user: userEvent.setup({ delay: null }) };
}

function LeavingForm() {
  const leave = useLeave('/list');
  return (
    <MantineProvider>
      <FormActions submitLabel="Save" onCancel={leave} />
    </MantineProvider>
  );
}

function renderLeavingForm(initialEntries: string[]) {
  const router = createMemoryRouter(
    [
      { path: '/list', element: <p>The list</p> },
      { path: '/home', element: <p>Home</p> },
      { path: '/form', element: <LeavingForm /> },
    ],
    { initialEntries, initialIndex: initialEntries.length - 1 },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('FormActions', () => {
  it('puts Cancel first and the submit button last', () => {
    renderForm();
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Cancel',
      'Save',
    ]);
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('type', 'submit');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveAttribute('type', 'button');
  });

  it('cancels without submitting and saves without cancelling', async () => {
    const { onSubmit, onCancel, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it('holds Cancel while the form is sending', () => {
    renderForm({ pending: true, cancelLabel: 'Back' });
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
  });
});

describe('useLeave', () => {
  it('goes back to the page the member came from', async () => {
    const router = renderLeavingForm(['/home', '/form']);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Home')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/home');
  });

  it('goes to the list when the form was opened directly', async () => {
    const router = renderLeavingForm(['/form']);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('The list')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/list');
  });
});
