import type { ReactNode } from 'react';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Section } from './section';

export interface LinkSectionProps {
  title: string;
  /** What the linked screen is for. */
  children: ReactNode;
  to: string;
  linkText: string;
}

/** A section that tells what another screen holds and links to it. */
export function LinkSection({ title, children, to, linkText }: LinkSectionProps) {
  return (
    <Section title={title}>
      <Text mb="sm">{children}</Text>
      <Anchor component={Link} to={to}>
        {linkText}
      </Anchor>
    </Section>
  );
}
