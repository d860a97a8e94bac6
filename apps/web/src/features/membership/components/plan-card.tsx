import { useId } from 'react';
import { Button, Paper, Table, Title } from '@mantine/core';
import type { Plan } from '@dental/contracts';
import { planRows } from '../plan-rows';

export interface PlanCardProps {
  plan: Plan;
  disabled: boolean;
  loading: boolean;
  onChoose: () => void;
}

/** One plan (docs/product/membership.md#plans) with its 'Choose Plan' button. */
export function PlanCard({ plan, disabled, loading, onChoose }: PlanCardProps) {
  const headingId = useId();
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={headingId}>
      <Title order={2} size="h3" mb="sm" id={headingId}>
        {plan.name}
      </Title>
      <Table variant="vertical" layout="fixed" withRowBorders mb="md">
        <Table.Tbody>
          {planRows(plan).map((row) => (
            <Table.Tr key={row.label}>
              <Table.Th scope="row">{row.label}</Table.Th>
              <Table.Td>{row.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Button
        fullWidth
        disabled={disabled}
        loading={loading}
        onClick={onChoose}
        aria-label={`Choose Plan ${plan.name}`}
      >
        Choose Plan
      </Button>
    </Paper>
  );
}
