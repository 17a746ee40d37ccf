import type { Control, FieldErrors, UseFormRegister } from 'react-hook-form';
import type { ServiceFormOutput, ServiceFormValues } from './service-schema';

export function Section({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  return (
    <fieldset className="form-section" style={{ border: 0, margin: 0, minWidth: 0 }}>
      <div className="form-section-title">
        <legend style={{ padding: 0 }}>
          <h3>{title}</h3>
        </legend>
        {description ? <p>{description}</p> : null}
      </div>
      <div style={{ minWidth: 0 }}>{children}</div>
    </fieldset>
  );
}

export type Sub = {
  control: Control<ServiceFormValues, unknown, ServiceFormOutput>;
  register: UseFormRegister<ServiceFormValues>;
  errors: FieldErrors<ServiceFormValues>;
};
