import { Alert, Anchor, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { updatePasswordSuccess } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { PageSpinner } from '#web/components/page-spinner';
import { PublicPage } from '#web/components/public-page';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { leaveLoginNotice } from '#web/lib/sign-out-notice';
import { useResetKeyCheck, useUpdatePassword } from './api/update-password';
import { useFormPopup } from './components/form-popup';
import { NewPasswordFields } from './components/new-password-fields';
import { SubmitButton } from './components/submit-button';
import { resetPasswordForm } from './form-schemas';

/** Reset password (docs/product/accounts.md#reset-password): the key comes from the e-mailed link's
 *  ?key=. A link already used or expired says so when the page opens, with no form to fill in
 *  (docs/decisions/password-reset.md). A mismatch of the two passwords is told in the same popup as on sign-up and nothing is
 *  sent (docs/decisions/reset-password-mismatch-popup.md); success leads to /login. */
export default function UpdatePasswordPage() {
  const [searchParams] = useSearchParams();
  const key = searchParams.get('key') ?? '';
  const navigate = useNavigate();
  const updatePassword = useUpdatePassword();
  const check = useResetKeyCheck(key);
  // Only the API's refusal of the link ends the page; another failure (no network, too many
  // checks) leaves the form, whose own answer will tell.
  const refused = check.error instanceof ApiError && check.error.status === 400;
  const popup = useFormPopup();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(resetPasswordForm),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(({ password, confirmPassword }) => {
    if (popup.passwordsDiffer(password, confirmPassword)) return;
    updatePassword.mutate(
      { password, key },
      {
        onSuccess: () => {
          leaveLoginNotice({ title: 'Password changed', text: updatePasswordSuccess });
          void navigate(paths.login, { replace: true });
        },
        onError: (error) => {
          popup.show({ title: 'Password not changed', text: errorMessage(error) });
        },
      },
    );
  });

  return (
    <PublicPage title="Reset password">
      {key === '' || refused ? (
        <Stack gap="md">
          <Alert color="red" variant="outline">
            {key === ''
              ? 'This reset link is incomplete. Please ask for a new one.'
              : errorMessage(check.error)}
          </Alert>
          <Anchor component={Link} to={paths.forgetPassword} size="sm" ta="center">
            Forgot password
          </Anchor>
        </Stack>
      ) : check.isPending ? (
        <PageSpinner />
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack gap="md">
            <NewPasswordFields
              label="New Password"
              password={register('password')}
              confirmPassword={register('confirmPassword')}
              errors={errors}
            />
            <SubmitButton pending={updatePassword.isPending}>Update password</SubmitButton>
          </Stack>
        </form>
      )}
      {popup.dialog}
    </PublicPage>
  );
}
