#!/usr/bin/python3
"""Writes tests/model/data/albert-golden/: a small ALBERT checkpoint in Hugging Face layout and the logits
that Hugging Face's AlbertForPreTraining computes for a padded batch, for tst_albert_golden.

The model below follows transformers' modeling_albert.py (eager attention, finfo.min mask, gelu_new,
num_hidden_groups x inner_group_num layers) independently of the C++ code, with PyTorch's own modules, so
the C++ side is checked against PyTorch kernels, Hugging Face names and a file it did not write itself.

Run with Debian's python3-torch (not a project dependency):  /usr/bin/python3 tests/model/golden/make_albert_golden.py
"""
import json
import math
import os
import struct

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'data', 'albert-golden')

# Small sizes that still exercise everything: two groups of two layers, three layer applications (groups
# 0, 0, 1 by Hugging Face's rule), two heads, factorised embeddings.
CONFIG = {
    'architectures': ['AlbertForPreTraining'], 'model_type': 'albert',
    'vocab_size': 64, 'embedding_size': 8, 'hidden_size': 16, 'num_hidden_layers': 3,
    'num_hidden_groups': 2, 'inner_group_num': 2, 'num_attention_heads': 2, 'intermediate_size': 24,
    'hidden_act': 'gelu_new', 'hidden_dropout_prob': 0.0, 'attention_probs_dropout_prob': 0.0,
    'classifier_dropout_prob': 0.1, 'max_position_embeddings': 16, 'type_vocab_size': 2,
    'initializer_range': 0.02, 'layer_norm_eps': 1e-12, 'position_embedding_type': 'absolute',
    'pad_token_id': 0, 'bos_token_id': 2, 'eos_token_id': 3, 'torch_dtype': 'float32',
}


class Cfg:
    def __init__(self, d):
        self.__dict__.update(d)


c = Cfg(CONFIG)


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class Embeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.word_embeddings = nn.Embedding(c.vocab_size, c.embedding_size, padding_idx=c.pad_token_id)
        self.position_embeddings = nn.Embedding(c.max_position_embeddings, c.embedding_size)
        self.token_type_embeddings = nn.Embedding(c.type_vocab_size, c.embedding_size)
        self.LayerNorm = nn.LayerNorm(c.embedding_size, eps=c.layer_norm_eps)

    def forward(self, ids, types):
        positions = torch.arange(ids.shape[1]).unsqueeze(0)
        return self.LayerNorm(self.word_embeddings(ids) + self.token_type_embeddings(types)
                              + self.position_embeddings(positions))


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = c.num_attention_heads
        self.size = c.hidden_size // self.heads
        self.query = nn.Linear(c.hidden_size, c.hidden_size)
        self.key = nn.Linear(c.hidden_size, c.hidden_size)
        self.value = nn.Linear(c.hidden_size, c.hidden_size)
        self.dense = nn.Linear(c.hidden_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)

    def split(self, x):
        return x.view(x.shape[0], x.shape[1], self.heads, self.size).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.size) + mask
        context = torch.matmul(nn.functional.softmax(scores, dim=-1), v).transpose(2, 1).flatten(2)
        return self.LayerNorm(x + self.dense(context))


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.full_layer_layer_norm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.attention = Attention()
        self.ffn = nn.Linear(c.hidden_size, c.intermediate_size)
        self.ffn_output = nn.Linear(c.intermediate_size, c.hidden_size)

    def forward(self, x, mask):
        attended = self.attention(x, mask)
        return self.full_layer_layer_norm(self.ffn_output(gelu_new(self.ffn(attended))) + attended)


class LayerGroup(nn.Module):
    def __init__(self):
        super().__init__()
        self.albert_layers = nn.ModuleList([Layer() for _ in range(c.inner_group_num)])

    def forward(self, x, mask):
        for layer in self.albert_layers:
            x = layer(x, mask)
        return x


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding_hidden_mapping_in = nn.Linear(c.embedding_size, c.hidden_size)
        self.albert_layer_groups = nn.ModuleList([LayerGroup() for _ in range(c.num_hidden_groups)])

    def forward(self, x, mask):
        x = self.embedding_hidden_mapping_in(x)
        for i in range(c.num_hidden_layers):
            x = self.albert_layer_groups[int(i / (c.num_hidden_layers / c.num_hidden_groups))](x, mask)
        return x


class Body(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = Embeddings()
        self.encoder = Encoder()
        self.pooler = nn.Linear(c.hidden_size, c.hidden_size)

    def forward(self, ids, mask, types):
        additive = (1.0 - mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        sequence = self.encoder(self.embeddings(ids, types), additive)
        return sequence, torch.tanh(self.pooler(sequence[:, 0]))


class MlmHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.LayerNorm = nn.LayerNorm(c.embedding_size, eps=c.layer_norm_eps)
        self.bias = nn.Parameter(torch.zeros(c.vocab_size))
        self.dense = nn.Linear(c.hidden_size, c.embedding_size)
        self.decoder = nn.Linear(c.embedding_size, c.vocab_size)
        self.decoder.bias = self.bias

    def forward(self, x):
        return self.decoder(self.LayerNorm(gelu_new(self.dense(x))))


class SopHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.classifier = nn.Linear(c.hidden_size, 2)


class ForPreTraining(nn.Module):
    def __init__(self):
        super().__init__()
        self.albert = Body()
        self.predictions = MlmHead()
        self.sop_classifier = SopHead()
        self.predictions.decoder.weight = self.albert.embeddings.word_embeddings.weight

    def forward(self, ids, mask, types):
        sequence, pooled = self.albert(ids, mask, types)
        return self.predictions(sequence), self.sop_classifier.classifier(pooled)


def write_safetensors(path, tensors, metadata):
    dtypes = {torch.float32: 'F32', torch.int64: 'I64'}
    header, blobs, offset = {'__metadata__': metadata}, [], 0
    for name in sorted(tensors):
        t = tensors[name].detach().contiguous()
        blob = t.numpy().tobytes()
        header[name] = {'dtype': dtypes[t.dtype], 'shape': list(t.shape), 'data_offsets': [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(',', ':')).encode()
    text += b' ' * ((8 - len(text) % 8) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)) + text + b''.join(blobs))


def main():
    torch.manual_seed(20240601)
    model = ForPreTraining().eval()
    with torch.no_grad():
        # Wide random values everywhere (LayerNorm gains and biases included) so that a wrong eps, a
        # swapped residual or a missing bias shows up in the logits.
        for p in model.parameters():
            p.copy_(torch.randn_like(p) * 0.5)
    ids = torch.randint(0, c.vocab_size, (3, 10))
    mask = torch.ones(3, 10, dtype=torch.int64)
    mask[1, 7:] = 0
    mask[2, 4:] = 0
    types = torch.zeros(3, 10, dtype=torch.int64)
    types[:, 5:] = 1
    with torch.no_grad():
        mlm, sop = model(ids, mask, types)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, 'config.json'), 'w') as f:
        json.dump(CONFIG, f, indent=2, sort_keys=True)
        f.write('\n')
    state = {k: v for k, v in model.state_dict().items() if not k.startswith('predictions.decoder.')}
    write_safetensors(os.path.join(OUT, 'model.safetensors'), state, {'format': 'pt'})
    write_safetensors(os.path.join(OUT, 'expected.safetensors'),
                      {'input_ids': ids, 'attention_mask': mask, 'token_type_ids': types,
                       'mlm_logits': mlm, 'sop_logits': sop}, {'torch': torch.__version__})


if __name__ == '__main__':
    main()
