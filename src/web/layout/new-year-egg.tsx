/**
 * The 1 January easter egg (docs/console.md#new-year-easter-egg): a 🎉 in the top bar; choosing it runs confetti
 * for 3 seconds, then the page reloads after 10 seconds. The top bar loads this module on
 * that day only.
 */
import { Button, Dropdown } from 'antd';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from '../use-translation';

const PIECES = Array.from({ length: 60 }, (_, i) => i);
const COLOURS = ['#f5222d', '#fa8c16', '#fadb14', '#52c41a', '#1677ff', '#722ed1', '#eb2f96'];

function Confetti() {
  return createPortal(
    <div className="sy-confetti" aria-hidden>
      {PIECES.map((i) => (
        <span key={i} style={{ left: `${(i * 37) % 100}%`, background: COLOURS[i % COLOURS.length], animationDelay: `${(i % 12) * 0.12}s` }} />
      ))}
    </div>,
    document.body,
  );
}

export function NewYearEgg() {
  const { t } = useTranslation();
  const [running, setRunning] = useState(false);

  const celebrate = () => {
    setRunning(true);
    window.setTimeout(() => {
      setRunning(false);
      window.setTimeout(() => window.location.reload(), 10_000);
    }, 3_000);
  };

  return (
    <>
      <Dropdown trigger={['click']} menu={{ items: [{ key: 'celebrate', label: t('header.happyNewYear') }], onClick: celebrate }}>
        <Button type="text" aria-label={t('header.happyNewYear')}>
          🎉
        </Button>
      </Dropdown>
      {running && <Confetti />}
    </>
  );
}
