import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PublicPage } from '#web/components/public-page';
import { resetPasswordForm } from '#web/features/auth/form-schemas';
import { useFormPopup } from '#web/features/auth/components/form-popup';
import { NewPasswordFields } from '#web/features/auth/components/new-password-fields';
import { SubmitButton } from '#web/features/auth/components/submit-button';
import { errorMessage } from '#web/lib/api-client';
import { leaveLoginNotice } from '#web/lib/sign-out-notice';
import { useAcceptInvitation } from '../api/clinic-api';
import { clinicPaths } from '../paths';

/** The e-mailed invitation's page (`/clinic/invitation?token=…`): the new staff member chooses a
 *  password, then signs in with it. The same fields and mismatch popup as a password reset. */
export default function InvitationPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const navigate = useNavigate();
  const accept = useAcceptInvitation();
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
    accept.mutate(
      { token, password },
      {
        onSuccess: () => {
          leaveLoginNotice({
            title: 'Your account is ready',
            text: 'Sign in with your e-mail address and the password you have just chosen.',
          });
          void navigate(clinicPaths.signIn, { replace: true });
        },
        onError: (error) => {
          popup.show({ title: 'Invitation not accepted', text: errorMessage(error) });
        },
      },
    );
  });

  return (
    <PublicPage title="Join your practice">
      {token === '' ? (
        <Alert color="red" variant="outline">
          This invitation link is incomplete. Please ask your practice for a new invitation.
        </Alert>
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack gap="md">
            <Text>
              You have been invited to the clinic console of Dental Companion. Choose the password
              you will sign in with.
            </Text>
            <NewPasswordFields
              label="Password"
              password={register('password')}
              confirmPassword={register('confirmPassword')}
              errors={errors}
            />
            <SubmitButton pending={accept.isPending}>Accept invitation</SubmitButton>
            <Anchor component={Link} to={clinicPaths.signIn} size="sm" ta="center">
              I already have a password: sign in
            </Anchor>
          </Stack>
        </form>
      )}
      {popup.dialog}
    </PublicPage>
  );
}
