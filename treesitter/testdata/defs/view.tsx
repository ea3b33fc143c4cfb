import React from "react";

type Props = { title: string };

export function Header({ title }: Props) {
  return <h1>{title}</h1>;
}

export const Footer = (props: Props) => <footer>{props.title}</footer>;

class Page extends React.Component<Props> {
  render() {
    return <div><Header title="x" /></div>;
  }
}
