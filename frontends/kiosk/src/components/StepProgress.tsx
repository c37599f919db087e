/** Three dots showing where in the flow the person is (decoration: the step's heading says it). */
export function StepProgress({ current, total = 3 }: { current: number; total?: number }) {
  return (
    <ol className="kiosk-progress" aria-hidden="true">
      {Array.from({ length: total }, (_, index) => (
        <li
          key={index}
          className={`kiosk-progress__dot${index <= current ? ' kiosk-progress__dot--done' : ''}`}
        />
      ))}
    </ol>
  );
}
