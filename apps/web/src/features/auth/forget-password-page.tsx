import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { forgetPasswordSuccess } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { PublicPage } from '#web/components/public-page';
import { errorMessage } from '#web/lib/api-client';
import { useForgetPassword } from './api/forget-password';
import { EmailField } from './components/email-field';
import { SubmitButton } from './components/submit-button';
import { forgetPasswordForm } from './form-schemas';

/** Forgot password (docs/product/accounts.md#forgot-password): one e-mail field; success and the
 *  server's refusal are told on the page. */
export default function ForgetPasswordPage() {
  const forgetPassword = useForgetPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(forgetPasswordForm), defaultValues: { email: '' } });

  const onSubmit = handleSubmit(({ email }) => {
    forgetPassword.mutate(email);
  });

  return (
    <PublicPage title="Forgot password">
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <Text size="sm">Enter the e-mail address of your account to get a reset link.</Text>
          <EmailField {...register('email')} error={errors.email?.message} />
          <SubmitButton pending={forgetPassword.isPending}>Reset Password</SubmitButton>
          {forgetPassword.isSuccess && (
            <Alert color="dental" variant="outline" role="status">
              {forgetPasswordSuccess}
            </Alert>
          )}
          {forgetPassword.isError && (
            <Alert color="red" variant="outline">
              {errorMessage(forgetPassword.error)}
            </Alert>
          )}
          <Anchor component={Link} to={paths.login} size="sm" ta="center">
            Back to Log in
          </Anchor>
        </Stack>
      </form>
    </PublicPage>
  );
}
