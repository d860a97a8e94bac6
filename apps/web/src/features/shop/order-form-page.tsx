import { useState, type SyntheticEvent } from 'react';
import { Alert, Anchor, NumberInput, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { centsPerPoint, maxPointsFor, maxQuantity, type Product } from '@dental/contracts';
import { Detail, DetailsList } from '#web/components/details-list';
import { FormActions } from '#web/components/form-actions';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { Section } from '#web/components/section';
import { paths } from '#web/config/paths';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useSupplier } from '#web/lib/supplier';
import { usePlaceOrder, usePoints } from './api/shop-api';
import { pointsText, pointsValue, usd } from '#web/lib/money';

const addressFields = [
  { name: 'name', label: 'Full name', autoComplete: 'shipping name' },
  { name: 'line1', label: 'Street address', autoComplete: 'shipping address-line1' },
  { name: 'line2', label: 'Apartment, suite (optional)', autoComplete: 'shipping address-line2' },
  { name: 'city', label: 'City', autoComplete: 'shipping address-level2' },
  { name: 'state', label: 'State', autoComplete: 'shipping address-level1' },
  { name: 'postal_code', label: 'ZIP code', autoComplete: 'shipping postal-code' },
] as const;

type Address = Record<(typeof addressFields)[number]['name'], string>;
const emptyAddress: Address = {
  name: '',
  line1: '',
  line2: '',
  city: '',
  state: '',
  postal_code: '',
};

/** The order form Buy opens (docs/product/shop.md#ordering): product, quantity, address and
 *  points, then the same full-page checkout as membership. */
function OrderForm({ supplierId, products }: { supplierId: string; products: Product[] }) {
  const navigate = useNavigate();
  const points = usePoints();
  const place = usePlaceOrder();
  const [productId, setProductId] = useState(products[0]?.id ?? '');
  const [quantity, setQuantity] = useState(1);
  const [usePointsCount, setUsePointsCount] = useState(0);
  const [address, setAddress] = useState<Address>(emptyAddress);
  const product = products.find((entry) => entry.id === productId);
  const subtotal = (product?.price_cents ?? 0) * quantity;
  const available = points.data?.points ?? 0;
  const maxPoints = Math.min(maxPointsFor(subtotal), available);
  const errors = place.error instanceof ApiError ? place.error.fieldErrors : {};
  const fieldError = (name: string) =>
    errors[name]?.join(' ') ?? errors[`shipping.${name}`]?.join(' ');

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    place.mutate(
      {
        supplier_id: supplierId,
        product_id: productId,
        quantity,
        points: usePointsCount,
        shipping: address,
      },
      {
        onSuccess: ({ checkout_url: checkoutUrl }) => {
          // The checkout is a full page of the API (or Stripe), not a screen of the app.
          window.location.assign(checkoutUrl);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Radio.Group
          label="Product"
          value={productId}
          onChange={setProductId}
          error={fieldError('product_id')}
        >
          <Stack gap="xs" mt="xs">
            {products.map((entry) => (
              <Radio
                key={entry.id}
                value={entry.id}
                label={`${entry.name} — ${usd(entry.price_cents)}`}
              />
            ))}
          </Stack>
        </Radio.Group>
        <NumberInput
          label="Quantity"
          min={1}
          max={maxQuantity}
          allowDecimal={false}
          value={quantity}
          onChange={(value) => {
            setQuantity(typeof value === 'number' ? value : 1);
          }}
          error={fieldError('quantity')}
        />
        <Section title="Shipping address">
          <Stack gap="sm">
            {addressFields.map((field) => (
              <TextInput
                key={field.name}
                label={field.label}
                required={field.name !== 'line2'}
                autoComplete={field.autoComplete}
                value={address[field.name]}
                onChange={(event) => {
                  const { value } = event.currentTarget;
                  setAddress((current) => ({ ...current, [field.name]: value }));
                }}
                error={fieldError(field.name)}
              />
            ))}
          </Stack>
        </Section>
        <NumberInput
          label="Points to use"
          description={`100 points = $1. Points pay at most half of the price. You have ${pointsText(available)}; you can use up to ${pointsText(maxPoints)} here.`}
          min={0}
          max={maxPoints}
          allowDecimal={false}
          value={usePointsCount}
          onChange={(value) => {
            setUsePointsCount(typeof value === 'number' ? value : 0);
          }}
          error={fieldError('points')}
        />
        <DetailsList>
          <Detail label="Price">{usd(subtotal)}</Detail>
          <Detail label="Points">−{pointsValue(usePointsCount)}</Detail>
          <Detail label="To pay by card">
            {usd(subtotal - Math.min(usePointsCount, maxPoints) * centsPerPoint)}
          </Detail>
        </DetailsList>
        {place.isError && (
          <Alert color="red" variant="outline" role="alert">
            {errorMessage(place.error)}
          </Alert>
        )}
        <FormActions
          submitLabel="Continue to payment"
          pending={place.isPending}
          onCancel={() => {
            void navigate(paths.oralSupplier(supplierId));
          }}
        />
      </Stack>
    </form>
  );
}

export default function OrderFormPage() {
  const { supplierId = '' } = useParams();
  const supplier = useSupplier(supplierId);
  useDocumentTitle('Order');

  if (supplier.isPending) return <PageSpinner />;
  return (
    <Stack gap="md">
      <Title order={1}>Order{supplier.data ? ` from ${supplier.data.title}` : ''}</Title>
      {supplier.isError ? (
        <LoadFailed error={supplier.error} onRetry={() => supplier.refetch()} />
      ) : supplier.data.products.length === 0 ? (
        <Text>This page sells nothing in our shop.</Text>
      ) : (
        <OrderForm supplierId={supplierId} products={supplier.data.products} />
      )}
      <Anchor component={Link} to={paths.oralSupplier(supplierId)}>
        Back to {supplier.data?.title ?? 'the supplier page'}
      </Anchor>
    </Stack>
  );
}
