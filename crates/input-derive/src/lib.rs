//! `#[derive(Input)]`: a struct whose fields are a request's parameters becomes the
//! request's parser and its OpenAPI description at once (`crates/web/src/input.rs`
//! says what the generated code calls).
//!
//! ```ignore
//! /// A location's fields on create.
//! #[derive(Input)]
//! #[input(resource = "location")]
//! struct NewLocation {
//!     /// The location's name, any length.
//!     #[input(format = AnyName)]
//!     name: Name,
//!     /// Text; `null` clears.
//!     description: Change<String>,
//!     #[input(flatten)]
//!     address: AddressInput,
//! }
//! ```
//!
//! A field's type says whether it must be sent: `T` is required, `Option<T>` may be
//! left out, `Change<T>` may be left out (keep) or sent as `null` (clear). The value's
//! format is `T` itself, or the type named by `#[input(format = F)]` (whose `Value` is
//! `T`). Doc comments are the descriptions. `#[input(rename = "x")]` names the
//! parameter when the wire's name is not the field's; `#[input(flatten)]` reads another
//! `Input`'s fields under the same resource. `#[input(needs = "date")]` takes the field
//! only beside `date` (a time beside its day): the read refuses it alone, and the
//! document says so. `#[input(or = "other")]`: this field or `other` must be sent
//! (`"/other[]"`: a parameter outside the resource, named as a form sends it).
//! `#[input(skip)]` is no parameter (a `PhantomData`).

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote};
use syn::{
    Attribute, Data, DeriveInput, Expr, ExprLit, Fields, GenericArgument, Lit, LitStr, Meta,
    PathArguments, Type, parse_macro_input,
};

#[proc_macro_derive(Input, attributes(input))]
pub fn derive_input(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Whether a field must be sent, from its type.
enum Presence {
    Required,
    Optional,
    Change,
}

struct FieldSpec {
    ident: syn::Ident,
    wire: String,
    doc: String,
    kind: FieldKind,
    /// The field it may be sent only with (`#[input(needs = "...")]`).
    needs: Option<String>,
    /// The field to send if it is left out (`#[input(or = "...")]`).
    or: Option<String>,
}

enum FieldKind {
    Flatten(Type),
    /// Not a parameter: its default (`#[input(skip)]`, a `PhantomData`).
    Skip,
    Value {
        presence: Presence,
        format: Type,
    },
}

fn expand(input: &DeriveInput) -> syn::Result<Tokens> {
    let name = &input.ident;
    let mut resource = String::new();
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("input")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("resource") {
                resource = meta.value()?.parse::<LitStr>()?.value();
                Ok(())
            } else {
                Err(meta.error("expected `resource = \"...\"`"))
            }
        })?;
    }
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            name,
            "Input is derived for structs",
        ));
    };
    let Fields::Named(named) = &data.fields else {
        return Err(syn::Error::new_spanned(
            name,
            "Input is derived for structs with named fields",
        ));
    };
    let mut specs = Vec::new();
    for field in &named.named {
        specs.push(field_spec(field)?);
    }

    let reads = specs.iter().map(|s| {
        let ident = &s.ident;
        let wire = &s.wire;
        match &s.kind {
            FieldKind::Flatten(ty) => quote! {
                let #ident = <#ty as crate::input::Input>::read(form);
            },
            FieldKind::Skip => quote! {
                let #ident = ::core::option::Option::Some(::core::default::Default::default());
            },
            FieldKind::Value { presence, format } => {
                let method = presence_method(presence);
                quote! { let #ident = form.#method::<#format>(#wire); }
            }
        }
    });
    // Checked whatever else failed, so the 422 names every problem.
    let needs = specs.iter().flat_map(|s| {
        let wire = &s.wire;
        let needs = s.needs.as_ref().map(|with| {
            quote! { needs_met &= crate::input::needs(form, #wire, #with); }
        });
        let or = s.or.as_ref().map(|other| {
            // The pair is read as the field is: a list sent empty is sent (the empty
            // list), a value sent blank is not.
            let (shape, empty_is_unsent) = match &s.kind {
                FieldKind::Value { format, .. } => (
                    quote! { <#format as crate::input::Format>::SHAPE },
                    quote! { <#format as crate::input::Format>::EMPTY_IS_UNSENT },
                ),
                _ => (quote! { crate::input::Shape::Scalar }, quote! { false }),
            };
            quote! { needs_met &= crate::input::either(form, #wire, #other, #shape, #empty_is_unsent); }
        });
        needs.into_iter().chain(or)
    });
    let idents: Vec<&syn::Ident> = specs.iter().map(|s| &s.ident).collect();
    let documents = specs.iter().map(|s| {
        let wire = &s.wire;
        let doc = &s.doc;
        match &s.kind {
            FieldKind::Flatten(ty) => quote! {
                <#ty as crate::input::Input>::document(fields);
            },
            FieldKind::Skip => quote! {},
            FieldKind::Value { presence, format } => {
                let method = presence_method(presence);
                let needs = s.needs.as_ref().map(|with| quote! { .needing(#with) });
                let or = s.or.as_ref().map(|other| quote! { .or(#other) });
                quote! { fields.push(crate::input::FieldDoc::#method::<#format>(#wire, #doc) #needs #or); }
            }
        }
    });
    // Every reader records a problem whenever it answers `None`, so `None` here always
    // comes with the 422 that names it.
    // The objects renamed fields sit in (`rental_price_attributes` of
    // `rental_price_attributes][daily`) hold fields, not a value or a list.
    let mut parents: Vec<String> = specs
        .iter()
        .filter_map(|s| s.wire.split_once("][").map(|(parent, _)| parent.to_owned()))
        .collect();
    parents.sort();
    parents.dedup();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics crate::input::Input for #name #ty_generics #where_clause {
            const RESOURCE: &'static str = #resource;

            fn read(form: &mut crate::form::Form<'_>) -> ::core::option::Option<Self> {
                #( form.check_fields_at(#parents); )*
                #(#reads)*
                #[allow(unused_mut)]
                let mut needs_met = true;
                #(#needs)*
                if !needs_met {
                    return ::core::option::Option::None;
                }
                ::core::option::Option::Some(Self { #( #idents: #idents?, )* })
            }

            fn document(fields: &mut ::std::vec::Vec<crate::input::FieldDoc>) {
                #(#documents)*
            }
        }
    })
}

fn presence_method(presence: &Presence) -> syn::Ident {
    format_ident!(
        "{}",
        match presence {
            Presence::Required => "required",
            Presence::Optional => "optional",
            Presence::Change => "change",
        }
    )
}

fn field_spec(field: &syn::Field) -> syn::Result<FieldSpec> {
    let ident = field
        .ident
        .clone()
        .ok_or_else(|| syn::Error::new_spanned(field, "a named field"))?;
    let mut wire = ident.to_string().trim_start_matches("r#").to_owned();
    let mut format: Option<Type> = None;
    let mut flatten = false;
    let mut needs = None;
    let mut or = None;
    let mut skip = false;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("input")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                wire = meta.value()?.parse::<LitStr>()?.value();
                Ok(())
            } else if meta.path.is_ident("format") {
                format = Some(meta.value()?.parse::<Type>()?);
                Ok(())
            } else if meta.path.is_ident("flatten") {
                flatten = true;
                Ok(())
            } else if meta.path.is_ident("skip") {
                skip = true;
                Ok(())
            } else if meta.path.is_ident("needs") {
                needs = Some(meta.value()?.parse::<LitStr>()?.value());
                Ok(())
            } else if meta.path.is_ident("or") {
                or = Some(meta.value()?.parse::<LitStr>()?.value());
                Ok(())
            } else {
                Err(meta.error("expected `rename`, `format`, `needs`, `or`, `flatten` or `skip`"))
            }
        })?;
    }
    let doc = doc_text(&field.attrs);
    if skip {
        return Ok(FieldSpec {
            ident,
            wire,
            doc,
            kind: FieldKind::Skip,
            needs,
            or,
        });
    }
    if flatten {
        return Ok(FieldSpec {
            ident,
            wire,
            doc,
            kind: FieldKind::Flatten(field.ty.clone()),
            needs,
            or,
        });
    }
    let (presence, inner) = presence_of(&field.ty);
    Ok(FieldSpec {
        ident,
        wire,
        doc,
        kind: FieldKind::Value {
            presence,
            format: format.unwrap_or_else(|| inner.clone()),
        },
        needs,
        or,
    })
}

/// `Option<T>` and `Change<T>` by the last segment of their path; anything else is a
/// required `T`.
fn presence_of(ty: &Type) -> (Presence, &Type) {
    if let Type::Path(path) = ty
        && let Some(last) = path.path.segments.last()
        && let PathArguments::AngleBracketed(args) = &last.arguments
        && args.args.len() == 1
        && let Some(GenericArgument::Type(inner)) = args.args.first()
    {
        if last.ident == "Option" {
            return (Presence::Optional, inner);
        }
        if last.ident == "Change" {
            return (Presence::Change, inner);
        }
    }
    (Presence::Required, ty)
}

/// The doc comment's lines joined by spaces (paragraphs by a blank line).
fn doc_text(attrs: &[Attribute]) -> String {
    let mut lines: Vec<String> = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        if let Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            lines.push(s.value().trim().to_owned());
        }
    }
    let mut text = String::new();
    for line in lines {
        if line.is_empty() {
            text.push_str("\n\n");
        } else {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push(' ');
            }
            text.push_str(&line);
        }
    }
    text.trim().to_owned()
}
